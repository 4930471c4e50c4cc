package dev.muster.scheduler.core.model;

/**
 * A container port a pod asks the node for ({@code hostPort}), as kube-scheduler's NodePorts filter
 * compares them.
 *
 * @param hostIp   the address; {@code 0.0.0.0} (all addresses) when unset
 * @param protocol TCP, UDP or SCTP; TCP when unset
 * @param port     the host port, above 0
 */
public record HostPort(String hostIp, String protocol, int port) {
    /** The address meaning every address of the node. */
    public static final String ANY_IP = "0.0.0.0";

    public HostPort {
        hostIp = hostIp == null || hostIp.isEmpty() ? ANY_IP : hostIp;
        protocol = protocol == null || protocol.isEmpty() ? "TCP" : protocol;
        if (port <= 0) {
            throw new IllegalArgumentException("a host port is above 0: " + port);
        }
    }

    /**
     * Whether two pods asking for these ports cannot share a node: same port and protocol, and the same
     * address or either one on every address.
     */
    public boolean conflictsWith(HostPort other) {
        return port == other.port && protocol.equals(other.protocol)
                && (hostIp.equals(other.hostIp) || ANY_IP.equals(hostIp) || ANY_IP.equals(other.hostIp));
    }

    @Override
    public String toString() {
        return hostIp + ":" + port + "/" + protocol;
    }
}
