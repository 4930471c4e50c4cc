package dev.muster.job.decision;

import dev.muster.api.batch.v1alpha1.validation.FieldError;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.StatusCause;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the API server said of a task's pods when asked to create one in a dry run: the fields it refuses, located
 * in the Job ({@code spec.tasks[0].template.spec.containers[0].image}), and the warnings it sent. A task template is
 * kept in the CRD as it was written (its schema would be the whole PodTemplateSpec), so this is where a template
 * that no pod could be made from is told apart, before its gang is admitted and holds room for pods the API server
 * would refuse one by one.
 *
 * @param refusals the refused fields, each with the API server's reason; empty when it accepted the pod
 * @param warnings the texts of its {@code Warning} headers
 * @param lasting  whether the verdict holds as long as the template and namespace do; not a refusal by the
 *                 namespace's Pod Security labels, which an administrator may relax before the job is submitted again
 */
public record PodTemplateVerdict(List<FieldError> refusals, List<String> warnings, boolean lasting) {
    private static final Pattern UNKNOWN_FIELD = Pattern.compile("unknown field \"([^\"]+)\"");
    private static final Pattern DUPLICATE_FIELD = Pattern.compile("duplicate field \"([^\"]+)\"");
    /**
     * How Pod Security admission's refusal begins after the pod's name, as in {@code pods "x" is forbidden: violates
     * PodSecurity "restricted:latest": ...}: the policy judges the pod's spec against its namespace's labels only.
     */
    private static final String POD_SECURITY_VIOLATION = "is forbidden: violates PodSecurity \"";
    /**
     * How kube-apiserver's LimitRanger refuses a container outside its namespace's LimitRanges
     * ({@code pods "x" is forbidden: maximum cpu usage per Container is 2, but limit is 4}): a refusal of every pod
     * of that template in that namespace while the LimitRange stands.
     */
    private static final Pattern LIMIT_RANGE_VIOLATION = Pattern.compile(
            "is forbidden: \\[?(?:(?:minimum|maximum) \\S+ usage per Container is |\\S+ max limit to request ratio per Container is )");

    /**
     * How kube-apiserver's Priority admission refuses a pod that sets a {@code priority} or {@code preemptionPolicy}
     * other than its class gives ({@code pods "x" is forbidden: the integer value of priority (5) must not be provided
     * in pod spec; ...}): a refusal of every pod of that template while the class stands.
     */
    private static final Pattern PRIORITY_VIOLATION = Pattern.compile(
            "is forbidden: the (?:integer value of priority|string value of PreemptionPolicy) \\(");

    public PodTemplateVerdict {
        refusals = List.copyOf(refusals);
        warnings = List.copyOf(warnings);
    }

    /**
     * The verdict of a dry-run create of pod {@code pod} of the task at {@code taskIndex}, from the answer's code,
     * its Status (for a refusal) and its warnings; nothing when the answer says nothing about the template. What
     * judges it: 400 (the body could not be decoded: a misspelt or unknown field under strict field validation),
     * 422 (invalid), and the 403s of Pod Security admission enforcing its namespace's level, of LimitRanger holding
     * a container to its namespace's LimitRanges and of Priority admission refusing a priority the class does not
     * give, which refuse every pod of that template in that namespace. What does not: another 403 (a quota exceeded for now, a webhook's or
     * authorizer's refusal, which may not be about the template), a conflict, a server error.
     */
    public static Optional<PodTemplateVerdict> of(int taskIndex, String pod, int code, Status status, List<String> warnings) {
        if (code >= 200 && code < 300) {
            return Optional.of(new PodTemplateVerdict(List.of(), warnings, true));
        }
        String message = status == null || status.getMessage() == null ? "refused with code " + code : status.getMessage();
        if (code != 400 && code != 422 && !(code == 403 && (message.contains(POD_SECURITY_VIOLATION)
                || LIMIT_RANGE_VIOLATION.matcher(message).find() || PRIORITY_VIOLATION.matcher(message).find()))) {
            return Optional.empty();
        }
        String template = "spec.tasks[" + taskIndex + "].template";
        List<FieldError> fields = new ArrayList<>();
        if (code == 422) {
            List<StatusCause> causes = status == null || status.getDetails() == null || status.getDetails().getCauses() == null
                    ? List.of() : status.getDetails().getCauses();
            for (StatusCause cause : causes) {
                if (cause.getField() != null && !cause.getField().isBlank() && cause.getMessage() != null) {
                    fields.add(new FieldError(template + "." + cause.getField(), cause.getMessage()));
                }
            }
        } else {
            addFields(UNKNOWN_FIELD.matcher(message), template, "unknown field", fields);
            addFields(DUPLICATE_FIELD.matcher(message), template, "duplicate field", fields);
        }
        // Said once, first: where the refusals come from, then each field as the API server named it.
        List<FieldError> refusals = new ArrayList<>();
        String refused = "the API server refused pod " + pod + " in a dry run";
        refusals.add(new FieldError(template, fields.isEmpty() ? refused + ": " + message : refused));
        refusals.addAll(fields);
        return Optional.of(new PodTemplateVerdict(refusals, warnings, code != 403));
    }

    /** The events of this verdict's warnings: the field path of the task's template, then the API server's text. */
    public List<String> describeWarnings(int taskIndex) {
        return warnings.stream().map(w -> "spec.tasks[" + taskIndex + "].template: " + w).toList();
    }

    private static void addFields(Matcher fields, String template, String message, List<FieldError> into) {
        while (fields.find()) {
            into.add(new FieldError(template + "." + fields.group(1), message));
        }
    }
}
