package dev.muster.local;

import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A TCP relay between clients and the local cluster that a test can cut, as a network fault would: every
 * open connection (watches included) is closed, and new ones are refused until {@link #restore()}. Clients
 * made by {@link #client()} go through it; the cluster's own client does not, so a test can change objects
 * while the cut lasts and check that a watcher catches up afterwards. Hand-written because it is a few dozen
 * lines of sockets, and no maintained Java library offers a cuttable relay without a container.
 */
public final class NetworkCut implements AutoCloseable {
    private final LocalCluster cluster;
    private final URI target;
    private final ServerSocket listener;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private volatile boolean cut;

    /** Starts relaying to the cluster on a free loopback port. */
    public NetworkCut(LocalCluster cluster) {
        this.cluster = cluster;
        this.target = URI.create(cluster.url());
        try {
            this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Thread acceptor = new Thread(this::accept, "network-cut-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** A client of the cluster whose connections go through this relay. */
    public KubernetesClient client() {
        return new KubernetesClientBuilder()
                .withConfig(new ConfigBuilder(cluster.client().getConfiguration()).withMasterUrl(url()).build()).build();
    }

    /** The relay's URL, for a client made elsewhere (a whole manager) to reach the cluster through it. */
    public String url() {
        return target.getScheme() + "://" + listener.getInetAddress().getHostAddress() + ":" + listener.getLocalPort();
    }

    /** Closes every relayed connection and refuses new ones. */
    public void cut() {
        cut = true;
        open.forEach(NetworkCut::closeQuietly);
        open.clear();
    }

    /** Relays new connections again. */
    public void restore() {
        cut = false;
    }

    private void accept() {
        while (!listener.isClosed()) {
            try {
                Socket downstream = listener.accept();
                if (cut) {
                    closeQuietly(downstream);
                    continue;
                }
                Socket upstream = new Socket();
                upstream.connect(new InetSocketAddress(target.getHost(), target.getPort()));
                open.add(downstream);
                open.add(upstream);
                pump(downstream, upstream);
                pump(upstream, downstream);
            } catch (IOException e) {
                if (listener.isClosed()) {
                    return;
                }
            }
        }
    }

    private void pump(Socket from, Socket to) {
        Thread t = new Thread(() -> {
            byte[] buffer = new byte[16 * 1024];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                int n;
                while ((n = in.read(buffer)) >= 0) {
                    out.write(buffer, 0, n);
                    out.flush();
                }
            } catch (IOException e) {
                // The other side or a cut closed the connection.
            } finally {
                closeQuietly(from);
                closeQuietly(to);
                open.remove(from);
                open.remove(to);
            }
        }, "network-cut-pump");
        t.setDaemon(true);
        t.start();
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // Already closed.
        }
    }

    @Override
    public void close() {
        cut();
        try {
            listener.close();
        } catch (IOException e) {
            // Already closed.
        }
    }
}
