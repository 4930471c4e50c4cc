package dev.muster.api.read;

import com.fasterxml.jackson.annotation.JsonIgnore;
import io.fabric8.kubernetes.client.CustomResource;

import java.util.Optional;

/**
 * A Muster custom resource read with a {@link LenientResourceReader}: keeps what its reader could not read,
 * so that each kind only names its reader.
 *
 * @param <S> the spec
 * @param <T> the status
 */
public abstract class LenientCustomResource<S, T> extends CustomResource<S, T> implements LenientlyRead {
    @JsonIgnore
    private ReadFailure readFailure;

    @Override
    public Optional<ReadFailure> readFailure() {
        return Optional.ofNullable(readFailure);
    }

    @Override
    public void readFailure(ReadFailure failure) {
        this.readFailure = failure;
    }
}
