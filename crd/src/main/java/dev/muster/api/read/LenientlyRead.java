package dev.muster.api.read;

import java.util.Optional;

/**
 * A kind read with {@link LenientResourceReader}: an object whose spec or status does not fit Muster's types
 * (a string where a number belongs, a number too large for an {@code int}, an object of a newer version) is
 * still read, with its metadata and whatever else could be read, and says here what could not. Informers
 * therefore keep watching, and a controller can still address the object: report it, or fail it.
 */
public interface LenientlyRead {

    /** What could not be read, if anything; never sent to the API server. */
    Optional<ReadFailure> readFailure();

    /** Records what could not be read; called by the reader only. */
    void readFailure(ReadFailure failure);
}
