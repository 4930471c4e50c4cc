#!/usr/bin/env bash
# Runs a benchmark main from the test sources (docs/benchmarks.md). They are not tests: no build runs them.
#   gang-scheduler/bench.sh              placement core on synthetic clusters (PlacementBench)
#   gang-scheduler/bench.sh local        end to end on the in-JVM local cluster (LocalClusterBench)
#   gang-scheduler/bench.sh queues       only the 20-queue cycle against no queues (PlacementBench queues)
#   gang-scheduler/bench.sh dra          only the fixed case and its DRA row, every pod claiming a GPU (PlacementBench dra)
set -euo pipefail
cd "$(dirname "$0")/.."
case "${1:-placement}" in
  placement) main=dev.muster.scheduler.bench.PlacementBench; heap=(-Xms2g -Xmx2g) ;;
  queues) main=dev.muster.scheduler.bench.PlacementBench; heap=(-Xms2g -Xmx2g); set -- x queues ;;
  dra) main=dev.muster.scheduler.bench.PlacementBench; heap=(-Xms2g -Xmx2g); set -- x dra ;;
  local) main=dev.muster.scheduler.bench.LocalClusterBench; heap=(-Xmx2g) ;;
  *) echo "usage: $0 [placement|local|queues|dra]" >&2; exit 2 ;;
esac
./mvnw -q -pl gang-scheduler -am test-compile dependency:build-classpath \
  -Dmdep.outputFile=target/bench.classpath -Dmdep.includeScope=test
exec java "${heap[@]}" -Dlogback.configurationFile=gang-scheduler/src/test/resources/logback-bench.xml -cp "gang-scheduler/target/test-classes:gang-scheduler/target/classes:$(cat gang-scheduler/target/bench.classpath)" "$main" "${@:2}"
