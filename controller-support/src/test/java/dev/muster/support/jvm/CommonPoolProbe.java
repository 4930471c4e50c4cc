package dev.muster.support.jvm;

import com.sun.net.httpserver.HttpServer;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.utils.HttpClientUtils;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * Run in a JVM of its own by {@link CommonPoolParallelismTest}: with the argument {@code raise} it calls
 * {@link CommonPoolParallelism#atLeastTwo()} first; then it sends {@code REQUESTS} requests one after the other
 * through fabric8's HTTP client (the JDK transport the manager runs with) to a local HTTP server, and prints the
 * threads the JVM started meanwhile and the common pool's parallelism.
 */
public final class CommonPoolProbe {
    static final int REQUESTS = 200;

    private CommonPoolProbe() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length > 0 && args[0].equals("raise")) {
            CommonPoolParallelism.atLeastTwo();
        }
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            byte[] body = "{}".getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
        String url = "http://127.0.0.1:" + server.getAddress().getPort() + "/";
        try (HttpClient client = HttpClientUtils.getHttpClientFactory().newBuilder().build()) {
            client.sendAsync(client.newHttpRequestBuilder().uri(url).build(), String.class).get(30, TimeUnit.SECONDS);
            long before = ManagementFactory.getThreadMXBean().getTotalStartedThreadCount();
            for (int i = 0; i < REQUESTS; i++) {
                client.sendAsync(client.newHttpRequestBuilder().uri(url).build(), String.class).get(30, TimeUnit.SECONDS);
            }
            long started = ManagementFactory.getThreadMXBean().getTotalStartedThreadCount() - before;
            System.out.println("threads started " + started + ", common pool parallelism "
                    + java.util.concurrent.ForkJoinPool.getCommonPoolParallelism());
        } finally {
            server.stop(0);
        }
    }
}
