/**
 * The API's wire vocabulary every request handler shares: query parameters, JSON documents, {@code meta/v1 Status}
 * responses worded as the real API server words them, and the field errors they carry.
 *
 * <p>Uses nothing of the local cluster; used by the server side (server, admission, disruption, fault, store).
 */
package dev.muster.local.protocol;
