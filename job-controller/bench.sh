#!/usr/bin/env bash
# Runs the JMH benchmark of one Job decision (JobDecisionBenchmark). It is not a test: no build runs it.
#   job-controller/bench.sh            both benchmarks, 1 fork, 3 warm-up and 5 measured 1 s iterations
#   job-controller/bench.sh -h         JMH's options (any JMH option can be passed through)
set -euo pipefail
cd "$(dirname "$0")/.."
./mvnw -q -pl job-controller -am test-compile dependency:build-classpath \
  -Dmdep.outputFile=target/bench.classpath -Dmdep.includeScope=test
exec java -Dlogback.configurationFile=job-controller/src/test/resources/logback-test.xml \
  -cp "job-controller/target/test-classes:job-controller/target/classes:$(cat job-controller/target/bench.classpath)" \
  org.openjdk.jmh.Main JobDecisionBenchmark "$@"
