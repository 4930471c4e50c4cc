package dev.muster.manager.security;

import java.security.Principal;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * The namespaces whose Muster objects a viewer may see: all (they may list Jobs cluster-wide), or those where
 * they may list Jobs.
 *
 * @param all        every namespace
 * @param namespaces the namespaces, when not all
 */
public record NamespaceScope(boolean all, SortedSet<String> namespaces) {
    /** Every namespace. */
    public static final NamespaceScope ALL = new NamespaceScope(true, new TreeSet<>());
    /** No namespace. */
    public static final NamespaceScope NONE = new NamespaceScope(false, new TreeSet<>());

    public NamespaceScope {
        namespaces = java.util.Collections.unmodifiableSortedSet(new TreeSet<>(namespaces));
    }

    /** Exactly these namespaces. */
    public static NamespaceScope of(Set<String> namespaces) {
        return new NamespaceScope(false, new TreeSet<>(namespaces));
    }

    /**
     * The scope of the request's principal: the {@link Viewer} the authentication filter put there. Any other
     * principal, or none, sees nothing, so that a request that bypassed the filter shows no one's jobs.
     */
    public static NamespaceScope of(Principal principal) {
        return principal instanceof Viewer viewer ? viewer.scope() : NONE;
    }

    /** Whether objects in {@code namespace} may be shown. */
    public boolean allows(String namespace) {
        return all || namespaces.contains(namespace);
    }

    /** Whether no namespace may be shown. */
    public boolean isEmpty() {
        return !all && namespaces.isEmpty();
    }
}
