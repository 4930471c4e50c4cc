package dev.muster.support.statemachine;

import java.util.Optional;

/**
 * One row of a {@link TransitionTable}: on {@link #event()} in state {@link #from()}, go to {@link #to()}
 * when the guard, {@link #check}, yields a verdict.
 *
 * @param <S> the state type
 * @param <E> the event type
 * @param <F> what the guard tests, computed once per decision by the caller
 * @param <V> what an open guard yields, e.g. the reason and message of the transition
 */
public interface TransitionRow<S, E, F, V> {
    /** The state the row leaves. */
    S from();

    /** The event the row answers. */
    E event();

    /** The state the row enters. */
    S to();

    /**
     * The guard: a verdict when the row may fire for these facts, else empty. {@link TransitionTable}
     * calls it at most once per decision, so it may be costly; it must not have side effects.
     */
    Optional<V> check(F facts);
}
