#!/usr/bin/env bash
# End-to-end throughput of the whole of Muster on the local cluster, and what it costs the API server: JOBS
# Jobs of PODS pods each (1 cpu, running 1 s, minAvailable = PODS) through `./muster local --until-done` on
# 50 simulated nodes of 32 cpu, with the heap capped (MUSTER_JAVA_OPTS, default -Xmx2g). It is not a test: no
# build runs it. Prints how long applying took, how long the jobs took after the last was applied, and the
# API requests by kind.
#   manager/bench.sh              1,000 one-pod Jobs
#   manager/bench.sh 100 16       100 gangs of 16 pods
#   MUSTER_KUBERNETES_QPS=500 manager/bench.sh   under a client-side rate limit (the chart's is 500, burst 1000;
#                                                 MUSTER_KUBERNETES_BURST sets the burst); the default is local
#                                                 mode's, none (docs/local-cluster.md)
#   MUSTER_BENCH_ROUNDS=3 manager/bench.sh       the same run three times in one JVM (LocalRoundsBench): the first
#                                                 round from a fresh JVM, the others with the JIT warm
# The JVM runs with the JIT setting ./muster local gives it, then MUSTER_JAVA_OPTS.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=${1:-1000}
pods=${2:-1}
mkdir -p manager/target
file=manager/target/bench-$jobs-jobs-of-$pods.yaml
for ((i = 0; i < jobs; i++)); do
  cat <<EOF
---
apiVersion: batch.muster.dev/v1alpha1
kind: Job
metadata: {name: job-$i, namespace: default}
spec:
  minAvailable: $pods
  tasks:
  - name: main
    replicas: $pods
    template:
      metadata: {annotations: {local.muster.dev/run-seconds: "1"}}
      spec: {restartPolicy: Never, containers: [{name: main, image: busybox, resources: {requests: {cpu: "1"}}}]}
EOF
done > "$file"
rounds=${MUSTER_BENCH_ROUNDS:-1}
echo "$jobs Jobs of $pods pods on 50 nodes of 32 cpu (${MUSTER_JAVA_OPTS:--Xmx2g}; client limit qps ${MUSTER_KUBERNETES_QPS:-none}, burst ${MUSTER_KUBERNETES_BURST:-default}; $rounds round(s))"
args=(--nodes 50 --node-cpu 32 --until-done --state-dir manager/target/bench-state "$file")
if [ "$rounds" -le 1 ]; then
  MUSTER_JAVA_OPTS="${MUSTER_JAVA_OPTS:--Xmx2g}" ./muster local "${args[@]}"
else
  export MAVEN_OPTS="${MAVEN_OPTS:--Xmx1g}"
  ./mvnw -B -q ${BENCH_MVN_FLAGS:-} -pl cli -am test-compile dependency:build-classpath -Dmdep.outputFile=target/bench-cp.txt \
    -Dmdep.includeScope=test >&2
  # The JIT setting ./muster local runs with (see there), then the caller's options.
  # shellcheck disable=SC2086
  java -XX:TieredStopAtLevel=1 ${MUSTER_JAVA_OPTS:--Xmx2g} \
    -cp "cli/target/test-classes:cli/target/classes:$(cat cli/target/bench-cp.txt)" \
    dev.muster.cli.local.LocalRoundsBench "$rounds" "${args[@]}"
fi | grep --line-buffered -E '^(round [0-9]|applied [0-9]+ objects|API requests|all submitted|some submitted|error)'
