/**
 * The emulated API server: the HTTP server and its routing ({@link dev.muster.local.server.ApiEmulator},
 * {@link dev.muster.local.server.MusterCrudDispatcher} on fabric8's CRUD mock server), discovery and the served
 * resources, server-side tables, access reviews, authentication and authorization
 * ({@link dev.muster.local.server.ClusterAccess}), the binding subresource, merge patches, selected collections and
 * the request counters ({@link dev.muster.local.server.ApiRequests}).
 *
 * <p>May use admission, disruption, fault, store and protocol; only {@code dev.muster.local} uses it.
 */
package dev.muster.local.server;
