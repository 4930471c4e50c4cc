package dev.muster.support.statemachine;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

import static dev.muster.support.statemachine.TransitionTableTest.Light.Green;
import static dev.muster.support.statemachine.TransitionTableTest.Light.Off;
import static dev.muster.support.statemachine.TransitionTableTest.Light.Red;
import static dev.muster.support.statemachine.TransitionTableTest.Signal.Switch;
import static dev.muster.support.statemachine.TransitionTableTest.Signal.Tick;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TransitionTableTest {
    enum Light { Red, Green, Off }

    enum Signal { Tick, Switch }

    /** Facts: whether the light may go green, whether it is switched off. */
    record Facts(boolean go, boolean off) {
    }

    record Row(Light from, Signal event, Light to, Function<Facts, Optional<String>> guard)
            implements TransitionRow<Light, Signal, Facts, String> {
        @Override
        public Optional<String> check(Facts facts) {
            return guard.apply(facts);
        }
    }

    private final Map<Row, AtomicInteger> calls = new ConcurrentHashMap<>();

    private Row row(Light from, Signal event, Light to, Function<Facts, Optional<String>> guard) {
        Row[] self = new Row[1];
        self[0] = new Row(from, event, to, facts -> {
            calls.computeIfAbsent(self[0], r -> new AtomicInteger()).incrementAndGet();
            return guard.apply(facts);
        });
        return self[0];
    }

    private final Row redToGreen = row(Red, Tick, Green, f -> f.go() ? Optional.of("go") : Optional.empty());
    private final Row redOff = row(Red, Switch, Off, f -> f.off() ? Optional.of("off") : Optional.empty());
    private final Row greenToRed = row(Green, Tick, Red, f -> f.go() ? Optional.empty() : Optional.of("stop"));
    private final Row greenStays = row(Green, Switch, Green, f -> f.off() ? Optional.empty() : Optional.of("kept on"));
    private final Row greenOff = row(Green, Switch, Off, f -> f.off() ? Optional.of("off") : Optional.empty());
    private final TransitionTable<Light, Signal, Facts, String, Row> table = new TransitionTable<>("light",
            Light.class, Signal.class, List.of(redToGreen, redOff, greenToRed, greenStays, greenOff));

    @Test
    void firesTheRowWhoseGuardIsOpenWithItsVerdict() {
        assertThat(table.fire(Red, Tick, new Facts(true, false))).contains(new TransitionTable.Fired<>(redToGreen, "go"));
        assertThat(table.fire(Green, Switch, new Facts(false, true))).contains(new TransitionTable.Fired<>(greenOff, "off"));
    }

    @Test
    void aSelfTransitionIsReportedAsFired() {
        assertThat(table.fire(Green, Switch, new Facts(false, false)))
                .contains(new TransitionTable.Fired<>(greenStays, "kept on"));
    }

    @Test
    void nothingFiresWhenNoGuardIsOpenOrNoRowAnswersTheEvent() {
        assertThat(table.fire(Red, Tick, new Facts(false, false))).isEmpty();
        assertThat(table.fire(Off, Tick, new Facts(true, true))).isEmpty();
    }

    @Test
    void evaluatesEachGuardOfTheCandidateRowsExactlyOnce() {
        table.fire(Green, Switch, new Facts(false, true));
        table.fire(Red, Tick, new Facts(true, false));
        table.fire(Red, Switch, new Facts(false, false));

        assertThat(calls).containsOnlyKeys(greenStays, greenOff, redToGreen, redOff);
        assertThat(calls.values()).allSatisfy(count -> assertThat(count).hasValue(1));
    }

    @Test
    void eachDecisionStartsFromTheGivenStateNotTheLastOne() {
        assertThat(table.fire(Red, Tick, new Facts(true, false))).map(f -> f.row().to()).contains(Green);
        assertThat(table.fire(Red, Tick, new Facts(true, false))).map(f -> f.row().to()).contains(Green);
        assertThat(table.fire(Green, Tick, new Facts(false, false))).map(f -> f.row().to()).contains(Red);
    }

    @Test
    void refusesTwoRowsWithTheSameSourceEventAndTarget() {
        assertThatThrownBy(() -> new TransitionTable<>("twice", Light.class, Signal.class, List.of(redToGreen,
                new Row(Red, Tick, Green, f -> Optional.empty())))).isInstanceOf(IllegalArgumentException.class);
    }
}
