package dev.muster.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.validation.FieldError;
import dev.muster.api.batch.v1alpha1.validation.JobValidator;
import dev.muster.rendering.JobPodRenderer;
import dev.muster.rendering.plugin.PodPlugins;
import dev.muster.cli.convert.Conversion;
import dev.muster.cli.convert.MusterSchemas;
import dev.muster.cli.convert.VolcanoConverter;
import io.fabric8.kubernetes.client.utils.Serialization;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code muster convert FILE...}: Volcano manifests rewritten as Muster's on standard output, each document
 * headed by comments that say what changed and what could not be carried; what could not be carried is
 * also written to standard error. Works offline: no cluster is contacted.
 *
 * <p>Exit codes: 0 converted; 1 when a file cannot be read or is not YAML, or a converted Job would still be
 * refused by Muster (each reason printed).
 */
@Command(name = "convert",
        description = {"Rewrites Volcano manifests (vcjobs, Queues, PodGroups, pod specs naming the volcano scheduler) "
                + "as Muster's.", "Prints the result; every change and every field it cannot carry is said as a comment, "
                + "and what is not carried also on standard error."})
final class ConvertCommand implements Callable<Integer> {
    private static final YAMLMapper YAML = YAMLMapper.builder()
            .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
            .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
            // "16" must stay a string: an env value or annotation written as a number is refused by the API server.
            .enable(YAMLGenerator.Feature.ALWAYS_QUOTE_NUMBERS_AS_STRINGS)
            .enable(YAMLGenerator.Feature.LITERAL_BLOCK_STYLE)
            .build();

    @ParentCommand
    MusterCli cli;
    @Parameters(paramLabel = "FILE", arity = "1..*", description = "YAML files to convert; - reads standard input.")
    List<String> files;

    @Override
    public Integer call() {
        List<VolcanoConverter.Source> sources = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        for (String file : files) {
            read(file, sources, problems);
        }
        if (!problems.isEmpty()) {
            problems.forEach(p -> cli.err.println("error: " + p));
            return 1;
        }
        List<Conversion> conversions = new VolcanoConverter(PodPlugins.BUILT_IN.names()).convert(sources);
        boolean refused = false;
        boolean first = true;
        for (Conversion conversion : conversions) {
            if (!first) {
                cli.out.println("---");
            }
            first = false;
            cli.out.println("# muster convert: " + conversion.source());
            conversion.changes().forEach(change -> cli.out.println("#   changed: " + change));
            for (String lost : conversion.notCarried()) {
                cli.out.println("#   not carried: " + lost);
                cli.err.println("warning: " + conversion.source() + ": not carried: " + lost);
            }
            if (conversion.result() == null) {
                continue;
            }
            List<String> refusals = refusals(conversion.result());
            for (String refusal : refusals) {
                cli.out.println("#   refused by Muster: " + refusal);
                cli.err.println("error: " + conversion.source() + ": Muster would refuse it: " + refusal);
            }
            refused |= !refusals.isEmpty();
            cli.out.print(yaml(conversion.result()));
        }
        return refused ? 1 : 0;
    }

    /**
     * Why Muster would refuse a converted object: first what its API server refuses at admission (types, bounds,
     * CEL rules), every field said; for a Job the API server accepts, the checks the Job controller runs before
     * rendering it. The controller never sees an object the API server refuses, so its checks are not run then.
     */
    private static List<String> refusals(ObjectNode document) {
        List<String> atAdmission = MusterSchemas.refusals(document);
        if (!atAdmission.isEmpty()
                || !document.path("apiVersion").asText().equals(Job.API_VERSION) || !document.path("kind").asText().equals(Job.KIND)) {
            return atAdmission;
        }
        Job job;
        try {
            job = Serialization.jsonMapper().treeToValue(document, Job.class);
        } catch (JsonProcessingException | IllegalArgumentException e) {
            return List.of("does not match the Job schema: " + e.getMessage());
        }
        List<FieldError> errors = JobPodRenderer.errors(job);
        return errors.isEmpty() ? List.of() : List.of(JobValidator.describe(errors));
    }

    private void read(String file, List<VolcanoConverter.Source> out, List<String> problems) {
        boolean stdin = file.equals("-");
        if (!stdin && !Files.isRegularFile(Path.of(file))) {
            problems.add(file + ": no such file");
            return;
        }
        int reading = 1;
        try (Reader reader = stdin ? new InputStreamReader(System.in, StandardCharsets.UTF_8) : Files.newBufferedReader(Path.of(file));
             MappingIterator<JsonNode> docs = YAML.readerFor(JsonNode.class).readValues(reader)) {
            for (; docs.hasNextValue(); reading++) {
                JsonNode doc = docs.nextValue();
                if (doc == null || doc.isNull() || doc.isMissingNode() || doc.isObject() && doc.isEmpty()) {
                    continue;
                }
                if (!(doc instanceof ObjectNode object) || !doc.hasNonNull("apiVersion") || !doc.hasNonNull("kind")) {
                    problems.add(file + ": document " + reading + ": expected a Kubernetes object with apiVersion and kind");
                    continue;
                }
                out.add(new VolcanoConverter.Source(stdin ? "<stdin>" : file, reading, object));
            }
        } catch (JsonProcessingException e) {
            // The YAML parser's own message spans lines with a caret drawing; its first line and the place suffice.
            problems.add(file + ": document " + reading + ": not valid YAML: " + e.getOriginalMessage().lines().findFirst().orElse("")
                    + (e.getLocation() == null ? "" : " (line " + e.getLocation().getLineNr() + ")"));
        } catch (IOException e) {
            problems.add(file + ": cannot be read: " + e.getMessage());
        }
    }

    private static String yaml(ObjectNode document) {
        try {
            return YAML.writeValueAsString(document);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a parsed document could not be written back", e);
        }
    }
}
