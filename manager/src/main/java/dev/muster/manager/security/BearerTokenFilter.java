package dev.muster.manager.security;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.server.PathContainer;
import org.springframework.http.server.RequestPath;
import org.springframework.web.filter.OncePerRequestFilter;

import java.io.IOException;
import java.security.Principal;
import java.util.List;

/**
 * The servlet side of {@link RequestGate}: classifies the request's path, refuses it with the gate's status
 * and a JSON message, or passes it on with the {@link Viewer} as its principal. Turned off
 * ({@code muster.security.enabled=false}), every request passes as {@link Viewer#UNAUTHENTICATED}.
 */
public final class BearerTokenFilter extends OncePerRequestFilter {
    private final RequestGate gate;
    private final boolean enabled;

    public BearerTokenFilter(RequestGate gate, boolean enabled) {
        this.gate = gate;
        this.enabled = enabled;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if (!enabled) {
            chain.doFilter(as(request, Viewer.UNAUTHENTICATED), response);
            return;
        }
        List<String> segments = RequestPath.parse(request.getRequestURI(), request.getContextPath())
                .pathWithinApplication().elements().stream()
                .filter(PathContainer.PathSegment.class::isInstance)
                .map(e -> ((PathContainer.PathSegment) e).valueToMatch()).toList();
        Protection protection = Protection.of(segments, request.getParameter("namespace"));
        RequestGate.Decision decision = gate.decide(protection, request.getHeader(HttpHeaders.AUTHORIZATION));
        if (!decision.served()) {
            if (decision.status() == HttpServletResponse.SC_UNAUTHORIZED) {
                response.setHeader(HttpHeaders.WWW_AUTHENTICATE, "Bearer realm=\"muster\"");
            }
            response.setStatus(decision.status());
            response.setContentType(MediaType.APPLICATION_JSON_VALUE);
            response.setCharacterEncoding("UTF-8");
            response.getWriter().write("{\"status\":" + decision.status() + ",\"message\":\""
                    + decision.message().replace("\\", "\\\\").replace("\"", "\\\"") + "\"}");
            return;
        }
        chain.doFilter(decision.viewer() == null ? request : as(request, decision.viewer()), response);
    }

    private static HttpServletRequest as(HttpServletRequest request, Viewer viewer) {
        return new HttpServletRequestWrapper(request) {
            @Override
            public Principal getUserPrincipal() {
                return viewer;
            }
        };
    }
}
