# The manager image the Helm chart runs (helm/muster/values.yaml `image`, docs/install.md section 2):
#   docker build -t registry.example.com/muster-manager:0.1.0 .
# Stage 1 builds manager/target/muster-manager.jar with the Maven wrapper, which fetches Maven itself; tests
# are left to CI (./mvnw verify), not repeated on every image build.
FROM eclipse-temurin:17-jdk AS build
WORKDIR /src
COPY . .
RUN ./mvnw -B -pl manager -am package -DskipTests

# Stage 2: a JRE 17 and the jar, nothing else (no shell, no package manager). Its `nonroot` user is UID/GID
# 65532, the user the chart's securityContext runs as; runAsNonRoot needs the numeric user set here. The
# jar is root-owned 0644: readable, not writable, as the chart's read-only root filesystem expects.
FROM gcr.io/distroless/java17-debian12:nonroot
COPY --from=build /src/manager/target/muster-manager.jar /app/muster-manager.jar
USER 65532:65532
# The chart's `http` containerPort (server.port): Actuator, metrics and the dashboard.
EXPOSE 8080
ENTRYPOINT ["/usr/bin/java", "-jar", "/app/muster-manager.jar"]
