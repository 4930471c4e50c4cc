/**
 * Admission as the API server does it: CRD schemas (structural schema, pruning, OpenAPI validation), CEL
 * {@code x-kubernetes-validations}, the defaults the API server sets on pods and persistent volume claims, the
 * validation of pods, their PodSecurity admission by their namespace's labels, unknown fields of pods against
 * fabric8's model, and the {@code fieldValidation} directive.
 *
 * <p>May use protocol only; used by server (and {@code dev.muster.local} for a default). The CLI uses
 * {@link dev.muster.local.admission.SchemaPruner} to prune manifests as the API server would.
 */
package dev.muster.local.admission;
