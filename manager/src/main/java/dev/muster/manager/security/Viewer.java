package dev.muster.manager.security;

import java.security.Principal;

/**
 * Who is looking, as the authentication filter made them the request's principal: their identity and the
 * namespaces they may see. The data endpoints read it back with {@link NamespaceScope#of(Principal)}.
 *
 * @param identity the reviewed user
 * @param scope    the namespaces whose objects they may see
 */
public record Viewer(Identity identity, NamespaceScope scope) implements Principal {
    /** With authentication turned off ({@code muster.security.enabled=false}): anyone, seeing everything. */
    public static final Viewer UNAUTHENTICATED = new Viewer(new Identity("system:anonymous", "", null), NamespaceScope.ALL);

    @Override
    public String getName() {
        return identity.user();
    }
}
