/**
 * Faults the API emulator injects on purpose for fault-tolerance tests: the plan
 * ({@link dev.muster.local.fault.FaultPlan}) and the dispatcher that fails requests and closes watches by it.
 * (The cuttable network relay, {@code dev.muster.local.NetworkCut}, wraps a whole local cluster and so lives beside it.)
 *
 * <p>May use protocol only; used by server and {@code dev.muster.local}.
 */
package dev.muster.local.fault;
