#!/usr/bin/env bash
# Muster at scale, end to end (docs/benchmarks.md, "At scale, end to end"): the local cluster in one JVM
# (SCALE_CLUSTER_OPTS, default -Xmx8g) and the production manager in a child JVM (SCALE_MANAGER_OPTS, default
# -Xmx2g, -Xmx1g for onepod), so that the manager's heap is measured alone. Not a test: no build runs it.
#   manager/scale-bench.sh gangs 5000 100000                 Jobs of 8-256 pods: pods bound/s, heap, bytes per pod
#   manager/scale-bench.sh restart 5000 50000 20000 4096     restart with 50,000 running and 20,000 waiting
#   manager/scale-bench.sh onepod 10000                      10,000 one-pod Jobs: time per job, heap
# SCALE_MANAGER_JFR=file.jfr records the manager with Flight Recorder. Output and manager logs: manager/target/scale.
set -euo pipefail
cd "$(dirname "$0")/.."
export MAVEN_OPTS="${MAVEN_OPTS:--Xmx1g}"
./mvnw -B -q ${SCALE_MVN_FLAGS:-} -pl manager -am test-compile dependency:build-classpath -Dmdep.outputFile=target/scale-cp.txt \
  -Dmdep.includeScope=test >&2
# shellcheck disable=SC2086
exec java ${SCALE_CLUSTER_OPTS:--Xmx8g} -cp "manager/target/test-classes:manager/target/classes:$(cat manager/target/scale-cp.txt)" \
  dev.muster.manager.scale.ScaleBench "$@"
