package dev.muster.cli.local;

import java.util.Arrays;

/**
 * {@code ./muster local} run several times in one JVM, for {@code docs/benchmarks.md}: the first round is what a
 * user sees from a fresh JVM, the later ones what the same code does once the JIT has compiled it. Each round
 * starts its own local cluster and manager, applies the same files and ends when they are done, printing the
 * lines {@code --until-done} ends with. Not a test: no build runs it; {@code manager/bench.sh} does when
 * {@code MUSTER_BENCH_ROUNDS} is more than 1.
 *
 * <pre>LocalRoundsBench ROUNDS LOCAL-ARGS...</pre>
 */
public final class LocalRoundsBench {
    private LocalRoundsBench() {
    }

    public static void main(String[] args) {
        int rounds = Integer.parseInt(args[0]);
        String[] local = Arrays.copyOfRange(args, 1, args.length);
        for (int round = 1; round <= rounds; round++) {
            System.out.println("round " + round + " of " + rounds + (round == 1 ? " (a fresh JVM)" : " (the same JVM)"));
            int exit = LocalCommand.run(local, System.out, System.err);
            if (exit != 0) {
                System.exit(exit);
            }
        }
        // The local cluster's and the manager's non-daemon threads are closed; nothing else should keep the JVM.
        System.exit(0);
    }
}
