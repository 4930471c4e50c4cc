package dev.muster.api.read;

/**
 * Why part of an object could not be read into Muster's types: the field path, in the form the API server
 * uses in its errors ({@code spec.tasks[0].replicas}), and what was wrong with the value there.
 *
 * @param field  path of the field that could not be read
 * @param reason what was wrong, without the field path
 */
public record ReadFailure(String field, String reason) {

    /** The failure as one line, e.g. {@code spec.tasks[0].replicas: "three" is not a valid int}. */
    public String describe() {
        return field + ": " + reason;
    }
}
