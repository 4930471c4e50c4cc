package dev.muster.manager.leadership;

/**
 * This process's view of the election at one moment.
 *
 * @param electing whether leader election is enabled; false means this process leads without a Lease
 * @param leader   whether this process runs the components now
 * @param identity this process's name in the Lease
 * @param lease    the Lease as {@code namespace/name}; null when not electing
 * @param holder   the identity the Lease last named as holder; null when not electing, before the first
 *                 read, or while nobody holds it
 */
public record LeadershipStatus(boolean electing, boolean leader, String identity, String lease, String holder) {
}
