package dev.muster.local.autoscaler;

import dev.muster.api.batch.v1alpha1.GoDuration;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Quantity;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A node group of the simulated cluster autoscaler, as a cloud provider's instance group is to Cluster
 * Autoscaler: identical nodes {@code <name>-0}, {@code <name>-1}, ... between {@code min} and {@code max} of them,
 * each with the same capacity and labels, added {@code delay} after the autoscaler decides to add them.
 *
 * @param name     the group's name, a DNS label; its nodes are labelled {@value #GROUP_LABEL}{@code =<name>}
 * @param min      nodes the group never goes below; they exist from the start
 * @param max      nodes the group never goes above
 * @param capacity each node's capacity by resource ({@code cpu}, {@code memory}, {@code nvidia.com/gpu}, ...);
 *                 {@code pods} defaults to 110
 * @param labels   labels of each node besides the group label, for node selectors
 * @param delay    time between a scale-up decision and the nodes' appearance, as a cloud provider takes
 * @param fail     whether the group's cloud provider refuses every scale-up (a quota or stock-out), for tests of
 *                 what waits for an autoscaler that cannot deliver
 */
public record NodeGroup(String name, int min, int max, Map<String, Quantity> capacity, Map<String, String> labels,
                        Duration delay, boolean fail) {
    /** The label that says which group a node belongs to. */
    public static final String GROUP_LABEL = "local.muster.dev/node-group";
    /** Pod slots of a group's node unless its capacity says otherwise, as a kubelet's default. */
    static final String DEFAULT_PODS = "110";

    private static final Pattern DNS_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?");
    private static final Pattern HEAD = Pattern.compile("([^=]*)=(\\d+)\\.\\.(\\d+)(?::(.*))?");

    public NodeGroup {
        Objects.requireNonNull(name, "name");
        if (name.length() > 50 || !DNS_LABEL.matcher(name).matches()) {
            throw new IllegalArgumentException("group name '" + name + "' is not a DNS label of at most 50 characters");
        }
        if (min < 0 || max < min || max == 0) {
            throw new IllegalArgumentException("group " + name + ": needs 0 <= min <= max and max >= 1, got "
                    + min + ".." + max);
        }
        Map<String, Quantity> complete = new LinkedHashMap<>(Objects.requireNonNull(capacity, "capacity"));
        complete.forEach((resource, amount) -> {
            if (Quantity.getAmountInBytes(amount).signum() < 0) {
                throw new IllegalArgumentException("group " + name + ": " + resource + " must not be negative, got "
                        + amount);
            }
        });
        if (!complete.containsKey("cpu") || !complete.containsKey("memory")) {
            throw new IllegalArgumentException("group " + name + ": capacity needs cpu and memory, got "
                    + complete.keySet());
        }
        complete.putIfAbsent("pods", new Quantity(DEFAULT_PODS));
        capacity = Collections.unmodifiableMap(complete);
        labels = Map.copyOf(Objects.requireNonNull(labels, "labels"));
        if (Objects.requireNonNull(delay, "delay").isNegative()) {
            throw new IllegalArgumentException("group " + name + ": delay must not be negative, got " + delay);
        }
    }

    /**
     * Node {@code index} of this group, {@code <name>-<index>}, as the cloud provider hands it over: labelled with
     * the group and the group's labels, with the group's capacity; {@code SimulatedNodes#simulated} completes it.
     */
    public Node node(int index) {
        return new NodeBuilder().withNewMetadata().withName(name + "-" + index)
                .addToLabels(labels).addToLabels(GROUP_LABEL, name).endMetadata()
                .withNewStatus().withCapacity(new LinkedHashMap<>(capacity)).endStatus().build();
    }

    /**
     * Parses {@code name=min..max:resource=quantity,...,delay=10s[,label.key=value...][,fail=true]}, e.g.
     * {@code gpu=0..8:cpu=32,memory=256Gi,nvidia.com/gpu=8,delay=10s}. A {@code label.} prefix makes a node label
     * ({@code label.pool=gpu}); everything else but {@code delay} and {@code fail} is a resource. The delay is 0
     * when not given.
     *
     * @throws IllegalArgumentException naming what is wrong in {@code spec}
     */
    public static NodeGroup parse(String spec) {
        Matcher head = HEAD.matcher(Objects.requireNonNull(spec, "spec").trim());
        if (!head.matches()) {
            throw new IllegalArgumentException("'" + spec + "' is not name=min..max:cpu=..,memory=..[,delay=..]");
        }
        String name = head.group(1);
        int min;
        int max;
        try {
            min = Integer.parseInt(head.group(2));
            max = Integer.parseInt(head.group(3));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + spec + "': min and max must be small whole numbers");
        }
        Map<String, Quantity> capacity = new LinkedHashMap<>();
        Map<String, String> labels = new LinkedHashMap<>();
        Duration delay = Duration.ZERO;
        boolean fail = false;
        String options = head.group(4) == null ? "" : head.group(4);
        for (String option : options.split(",")) {
            if (option.isBlank()) {
                continue;
            }
            int eq = option.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("'" + option + "' in '" + spec + "' is not key=value");
            }
            String key = option.substring(0, eq).trim();
            String value = option.substring(eq + 1).trim();
            switch (key) {
                case "delay" -> delay = duration(value, spec);
                case "fail" -> {
                    if (!value.equals("true") && !value.equals("false")) {
                        throw new IllegalArgumentException("fail=" + value + " in '" + spec + "' must be true or false");
                    }
                    fail = Boolean.parseBoolean(value);
                }
                default -> {
                    if (key.startsWith("label.")) {
                        labels.put(key.substring("label.".length()), value);
                    } else {
                        capacity.put(key, quantity(key, value, spec));
                    }
                }
            }
        }
        try {
            return new NodeGroup(name, min, max, capacity, labels, delay, fail);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("'" + spec + "': " + e.getMessage(), e);
        }
    }

    /** A copy whose cloud provider refuses ({@code true}) or grants scale-ups. */
    public NodeGroup withFail(boolean fail) {
        return new NodeGroup(name, min, max, capacity, labels, delay, fail);
    }

    /** A copy whose nodes appear {@code delay} after a scale-up decision. */
    public NodeGroup withDelay(Duration delay) {
        return new NodeGroup(name, min, max, capacity, labels, delay, fail);
    }

    private static Duration duration(String value, String spec) {
        try {
            return GoDuration.parse(value);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("delay=" + value + " in '" + spec + "' is not a duration such as 10s");
        }
    }

    private static Quantity quantity(String resource, String value, String spec) {
        BigDecimal amount;
        try {
            amount = Quantity.getAmountInBytes(new Quantity(value));
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(resource + "=" + value + " in '" + spec + "' is not a quantity");
        }
        if (amount.signum() < 0) {
            throw new IllegalArgumentException(resource + "=" + value + " in '" + spec + "' is negative");
        }
        return new Quantity(value);
    }
}
