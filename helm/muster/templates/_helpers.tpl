{{/* Chart name, truncated to the 63 characters a label value may have. */}}
{{- define "muster.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* Fully qualified app name: the release name, prefixed with the chart name unless it contains it. */}}
{{- define "muster.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{- define "muster.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "muster.selectorLabels" -}}
app.kubernetes.io/name: {{ include "muster.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/component: manager
{{- end }}

{{- define "muster.labels" -}}
helm.sh/chart: {{ include "muster.chart" . }}
{{ include "muster.selectorLabels" . }}
app.kubernetes.io/version: {{ .Values.image.tag | default .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: muster
{{- end }}

{{- define "muster.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "muster.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- required "serviceAccount.name is required when serviceAccount.create is false" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{/* config.leader-election, or an empty map. */}}
{{- define "muster.leaderElectionConfig" -}}
{{- $le := index .Values.config "leader-election" | default dict }}
{{- toYaml $le }}
{{- end }}

{{/* "true" unless config.leader-election.enabled is false (the manager's default is on). */}}
{{- define "muster.leaderElectionEnabled" -}}
{{- $le := include "muster.leaderElectionConfig" . | fromYaml }}
{{- if and (hasKey $le "enabled") (not $le.enabled) }}false{{ else }}true{{ end }}
{{- end }}

{{/* The Lease the replicas compete for: config.leader-election.lease-name, else <fullname>-manager. */}}
{{- define "muster.leaseName" -}}
{{- $le := include "muster.leaderElectionConfig" . | fromYaml }}
{{- index $le "lease-name" | default (printf "%s-manager" (include "muster.fullname" .) | trunc 63 | trimSuffix "-") }}
{{- end }}

{{/* The namespace of that Lease: config.leader-election.namespace, else the release namespace. */}}
{{- define "muster.leaseNamespace" -}}
{{- $le := include "muster.leaderElectionConfig" . | fromYaml }}
{{- index $le "namespace" | default .Release.Namespace }}
{{- end }}

{{/*
The muster.* properties: values.config with the release's lease name filled in, so two releases (say, in
a staging namespace) never share a Lease by accident.
*/}}
{{- define "muster.config" -}}
{{- $config := deepCopy .Values.config }}
{{- $le := include "muster.leaderElectionConfig" . | fromYaml }}
{{- $_ := set $le "lease-name" (include "muster.leaseName" .) }}
{{- $_ := set $config "leader-election" $le }}
{{- toYaml $config }}
{{- end }}

{{/* Refuses configurations that would install a broken manager. */}}
{{- define "muster.validate" -}}
{{- if not (.Files.Glob "crds/*.yml") }}
{{- fail "crds/ holds no CRD: install the chart assembled by the build (helm/target/chart/muster or helm/target/muster-<version>.tgz, see docs/install.md), not the sources in helm/muster" }}
{{- end }}
{{- if and (gt (int .Values.replicas) 1) (eq (include "muster.leaderElectionEnabled" .) "false") }}
{{- fail "replicas > 1 needs config.leader-election.enabled: two active managers would both schedule and reconcile" }}
{{- end }}
{{- end }}
