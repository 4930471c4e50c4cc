package dev.muster.local.admission;

import com.fasterxml.jackson.databind.JsonNode;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A resource quantity ({@code 500m}, {@code 2}, {@code 1Gi}, {@code 1e3}) read and printed as Kubernetes'
 * {@code resource.Quantity} reads and prints it
 * (<a href="https://github.com/kubernetes/kubernetes/blob/master/staging/src/k8s.io/apimachinery/pkg/api/resource/quantity.go">quantity.go</a>),
 * so that what the emulator says about one reads as kube-apiserver's: {@code 1.5} is {@code 1500m}, {@code 1024Mi}
 * is {@code 1Gi}, {@code 2000m} is {@code 2}. Precision finer than a nano is not rounded as there.
 *
 * @param value  the amount in the resource's unit
 * @param format how it is printed: with a decimal or binary suffix, or a decimal exponent
 */
public record Quantity(BigDecimal value, Format format) implements Comparable<Quantity> {
    /** Kubernetes' own pattern, which its error message quotes. */
    public static final String PATTERN = "^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$";
    private static final Pattern SPLIT = Pattern.compile(PATTERN);
    private static final Pattern EXPONENT = Pattern.compile("[eE][-+]?[0-9]+");
    private static final BigDecimal KIBI = BigDecimal.valueOf(1024);
    private static final Map<String, Integer> DECIMAL = Map.of("n", -9, "u", -6, "m", -3, "", 0, "k", 3, "M", 6,
            "G", 9, "T", 12, "P", 15, "E", 18);
    private static final Map<String, Integer> BINARY = Map.of("Ki", 1, "Mi", 2, "Gi", 3, "Ti", 4, "Pi", 5, "Ei", 6);
    private static final String[] BINARY_SUFFIXES = {"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};

    /** How a quantity is printed, from the suffix it was written with. */
    public enum Format { DECIMAL_SI, BINARY_SI, DECIMAL_EXPONENT }

    /**
     * Reads a quantity.
     *
     * @throws IllegalArgumentException with Kubernetes' words for what is wrong
     */
    public static Quantity parse(String text) {
        Matcher matcher = SPLIT.matcher(text);
        if (!matcher.matches()) {
            throw new IllegalArgumentException("quantities must match the regular expression '" + PATTERN + "'");
        }
        BigDecimal number;
        try {
            number = new BigDecimal(matcher.group(1).startsWith("+") ? matcher.group(1).substring(1) : matcher.group(1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("unable to parse quantity's numeric part", e);
        }
        String suffix = matcher.group(2);
        if (DECIMAL.containsKey(suffix)) {
            return new Quantity(number.scaleByPowerOfTen(DECIMAL.get(suffix)), Format.DECIMAL_SI);
        }
        if (BINARY.containsKey(suffix)) {
            return new Quantity(number.multiply(KIBI.pow(BINARY.get(suffix))), Format.BINARY_SI);
        }
        if (EXPONENT.matcher(suffix).matches()) {
            return new Quantity(number.scaleByPowerOfTen(Integer.parseInt(suffix.substring(1))), Format.DECIMAL_EXPONENT);
        }
        throw new IllegalArgumentException("unable to parse quantity's suffix");
    }

    /** The quantity a JSON value holds, if it is a string or a number that reads as one. */
    public static Optional<Quantity> of(JsonNode node) {
        if (!node.isTextual() && !node.isNumber()) {
            return Optional.empty();
        }
        try {
            return Optional.of(parse(node.isTextual() ? node.asText() : node.decimalValue().toPlainString()));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    @Override
    public int compareTo(Quantity other) {
        return value.compareTo(other.value);
    }

    /** Whether the amount is below zero. */
    public boolean isNegative() {
        return value.signum() < 0;
    }

    /**
     * Kubernetes' canonical form: the largest suffix that keeps the number whole (a binary one only for a whole
     * number of at least 1024 written with one), or the exponent a multiple of three.
     */
    @Override
    public String toString() {
        if (value.signum() == 0) {
            return "0";
        }
        if (format == Format.BINARY_SI && value.abs().compareTo(KIBI) >= 0 && isWhole(value)) {
            BigInteger amount = value.toBigIntegerExact();
            int exponent = 0;
            BigInteger kibi = BigInteger.valueOf(1024);
            while (exponent < BINARY_SUFFIXES.length - 1 && amount.mod(kibi).signum() == 0) {
                amount = amount.divide(kibi);
                exponent++;
            }
            return amount + BINARY_SUFFIXES[exponent];
        }
        BigDecimal stripped = value.stripTrailingZeros();
        int exponent = -stripped.scale();
        int down = Math.floorMod(exponent, 3);
        exponent -= down;
        BigInteger mantissa = stripped.scaleByPowerOfTen(-exponent).toBigIntegerExact();
        if (format == Format.DECIMAL_EXPONENT || !DECIMAL.containsValue(exponent)) {
            return exponent == 0 ? mantissa.toString() : mantissa + "e" + exponent;
        }
        int suffixExponent = exponent;
        String suffix = DECIMAL.entrySet().stream().filter(entry -> entry.getValue() == suffixExponent)
                .map(Map.Entry::getKey).findFirst().orElseThrow();
        return mantissa + suffix;
    }

    private static boolean isWhole(BigDecimal value) {
        return value.signum() == 0 || value.stripTrailingZeros().scale() <= 0;
    }
}
