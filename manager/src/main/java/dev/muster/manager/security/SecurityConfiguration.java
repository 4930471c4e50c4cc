package dev.muster.manager.security;

import dev.muster.manager.config.MusterProperties;
import dev.muster.support.informer.SharedInformers;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;

/**
 * Puts {@link BearerTokenFilter} in front of every request, first: the API server's reviews cached for
 * {@code muster.security.review-cache-ttl}, and the cluster's namespaces from the shared Namespace informer.
 */
@Configuration(proxyBeanMethods = false)
public class SecurityConfiguration {
    @Bean
    FilterRegistrationBean<BearerTokenFilter> bearerTokenFilter(KubernetesClient client, SharedInformers informers,
                                                                MusterProperties properties) {
        var store = informers.informer(Namespace.class).getStore();
        RequestGate gate = new RequestGate(
                new CachedReviews(new ApiServerReviews(client), properties.security().reviewCacheTtl()),
                () -> store.list().stream().map(ns -> ns.getMetadata().getName()).toList());
        FilterRegistrationBean<BearerTokenFilter> registration =
                new FilterRegistrationBean<>(new BearerTokenFilter(gate, properties.security().enabled()));
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE);
        return registration;
    }
}
