package dev.muster.podgroup;

import dev.muster.api.scheduling.v1alpha1.PodGroupPhase;
import org.springframework.messaging.support.MessageBuilder;
import org.springframework.statemachine.StateMachine;
import org.springframework.statemachine.config.StateMachineBuilder;
import org.springframework.statemachine.config.StateMachineFactory;
import org.springframework.statemachine.config.configurers.ExternalTransitionConfigurer;
import org.springframework.statemachine.support.DefaultStateMachineContext;
import reactor.core.publisher.Mono;

import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;

import static dev.muster.api.scheduling.v1alpha1.PodGroupPhase.Completed;
import static dev.muster.api.scheduling.v1alpha1.PodGroupPhase.Failed;
import static dev.muster.api.scheduling.v1alpha1.PodGroupPhase.Inqueue;
import static dev.muster.api.scheduling.v1alpha1.PodGroupPhase.Pending;
import static dev.muster.api.scheduling.v1alpha1.PodGroupPhase.Running;
import static dev.muster.api.scheduling.v1alpha1.PodGroupPhase.Unknown;
import static dev.muster.podgroup.GangEvent.GANG_ADMITTED;
import static dev.muster.podgroup.GangEvent.GANG_FAILED;
import static dev.muster.podgroup.GangEvent.GANG_PLACED;
import static dev.muster.podgroup.GangEvent.GANG_SUCCEEDED;
import static dev.muster.podgroup.GangEvent.GANG_UNPLACEABLE;
import static dev.muster.podgroup.GangEvent.MEMBERS_NOT_REPLACED;
import static dev.muster.podgroup.GangEvent.NO_PODS;
import static dev.muster.podgroup.GangEvent.QUORUM_RUNNING;

/**
 * The PodGroup phase lifecycle as a Spring StateMachine: the seed's table (Pending → Running →
 * Unknown → Pending) plus Inqueue (admitted or placed), Completed and Failed. An event that has no
 * transition from the current phase leaves it as it is, e.g. {@link GangEvent#GANG_INCOMPLETE} never
 * moves a phase.
 *
 * <p>Machines are built once, one parked in each phase, because most reconciles do not change the
 * phase: such a decision costs one event (microseconds), and only a decision that moves a machine
 * pays for stopping it and resetting it to its phase. Decisions on the same phase are serialized,
 * since a machine holds one state at a time; they do no I/O, so the lock is held only briefly.
 */
public final class PodGroupPhaseMachine {
    private final Map<PodGroupPhase, StateMachine<PodGroupPhase, GangEvent>> parked = new EnumMap<>(PodGroupPhase.class);

    /** Builds the machine definition, and from it one machine parked in each phase. */
    public PodGroupPhaseMachine() {
        StateMachineFactory<PodGroupPhase, GangEvent> factory = factory();
        for (PodGroupPhase phase : PodGroupPhase.values()) {
            StateMachine<PodGroupPhase, GangEvent> machine = factory.getStateMachine();
            park(machine, phase);
            parked.put(phase, machine);
        }
    }

    /** The phase a group in phase {@code from} moves to on {@code event}; {@code from} if none. */
    public PodGroupPhase next(PodGroupPhase from, GangEvent event) {
        StateMachine<PodGroupPhase, GangEvent> machine = parked.get(from);
        synchronized (machine) {
            machine.sendEvent(Mono.just(MessageBuilder.withPayload(event).build())).blockLast();
            PodGroupPhase to = machine.getState().getId();
            if (to != from) {
                park(machine, from);
            }
            return to;
        }
    }

    private static void park(StateMachine<PodGroupPhase, GangEvent> machine, PodGroupPhase phase) {
        machine.stopReactively().block();
        machine.getStateMachineAccessor().doWithAllRegions(access -> access
                .resetStateMachineReactively(new DefaultStateMachineContext<>(phase, null, null, null))
                .block());
        machine.startReactively().block();
    }

    private static StateMachineFactory<PodGroupPhase, GangEvent> factory() {
        try {
            return definition();
        } catch (Exception e) {
            throw new IllegalStateException("invalid PodGroup phase machine definition", e);
        }
    }

    private static StateMachineFactory<PodGroupPhase, GangEvent> definition() throws Exception {
        StateMachineBuilder.Builder<PodGroupPhase, GangEvent> builder = StateMachineBuilder.builder();
        builder.configureConfiguration().withConfiguration().autoStartup(false);
        builder.configureStates().withStates().initial(Pending).states(EnumSet.allOf(PodGroupPhase.class));
        var transitions = builder.configureTransitions();

        transition(transitions.withExternal(), Pending, GANG_PLACED, Inqueue);
        transition(transitions.withExternal(), Pending, GANG_ADMITTED, Inqueue);
        transition(transitions.withExternal(), Pending, QUORUM_RUNNING, Running);
        transition(transitions.withExternal(), Pending, GANG_SUCCEEDED, Completed);
        transition(transitions.withExternal(), Pending, GANG_FAILED, Failed);

        transition(transitions.withExternal(), Inqueue, QUORUM_RUNNING, Running);
        transition(transitions.withExternal(), Inqueue, GANG_UNPLACEABLE, Pending);
        transition(transitions.withExternal(), Inqueue, NO_PODS, Pending);
        transition(transitions.withExternal(), Inqueue, GANG_SUCCEEDED, Completed);
        transition(transitions.withExternal(), Inqueue, GANG_FAILED, Failed);

        // A restarted workload's old pods are deleted and its new gang admitted, perhaps before any look at the
        // group saw it without pods; the same holds below for Unknown, Completed and Failed.
        transition(transitions.withExternal(), Running, GANG_ADMITTED, Inqueue);
        // Pods restarted but placed again at once are not a lost gang, so GANG_PLACED keeps Running.
        transition(transitions.withExternal(), Running, GANG_UNPLACEABLE, Unknown);
        transition(transitions.withExternal(), Running, MEMBERS_NOT_REPLACED, Unknown);
        transition(transitions.withExternal(), Running, NO_PODS, Pending);
        transition(transitions.withExternal(), Running, GANG_SUCCEEDED, Completed);
        transition(transitions.withExternal(), Running, GANG_FAILED, Failed);

        transition(transitions.withExternal(), Unknown, NO_PODS, Pending);
        transition(transitions.withExternal(), Unknown, GANG_PLACED, Inqueue);
        transition(transitions.withExternal(), Unknown, GANG_ADMITTED, Inqueue);
        transition(transitions.withExternal(), Unknown, QUORUM_RUNNING, Running);
        transition(transitions.withExternal(), Unknown, GANG_SUCCEEDED, Completed);
        transition(transitions.withExternal(), Unknown, GANG_FAILED, Failed);

        // A finished group starts over when its workload does, e.g. a Job restarted by a policy.
        transition(transitions.withExternal(), Completed, NO_PODS, Pending);
        transition(transitions.withExternal(), Completed, GANG_ADMITTED, Inqueue);
        transition(transitions.withExternal(), Failed, NO_PODS, Pending);
        transition(transitions.withExternal(), Failed, GANG_ADMITTED, Inqueue);
        transition(transitions.withExternal(), Failed, GANG_PLACED, Inqueue);
        transition(transitions.withExternal(), Failed, QUORUM_RUNNING, Running);
        transition(transitions.withExternal(), Failed, GANG_SUCCEEDED, Completed);
        return builder.createFactory();
    }

    private static void transition(ExternalTransitionConfigurer<PodGroupPhase, GangEvent> configurer,
                                   PodGroupPhase source, GangEvent event, PodGroupPhase target) {
        configurer.source(source).event(event).target(target);
    }
}
