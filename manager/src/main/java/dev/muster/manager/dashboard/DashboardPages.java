package dev.muster.manager.dashboard;

import org.springframework.context.annotation.Configuration;
import org.springframework.web.servlet.config.annotation.ViewControllerRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * Serves the dashboard's page at {@code /dashboard/}; its files are static resources under
 * {@code static/dashboard/} in the jar, so it needs no network but the manager's.
 */
@Configuration(proxyBeanMethods = false)
public class DashboardPages implements WebMvcConfigurer {
    /** Where the dashboard is, relative to the manager's HTTP root. */
    public static final String PATH = "/dashboard/";

    @Override
    public void addViewControllers(ViewControllerRegistry registry) {
        registry.addRedirectViewController("/dashboard", PATH);
        registry.addViewController(PATH).setViewName("forward:" + PATH + "index.html");
    }
}
