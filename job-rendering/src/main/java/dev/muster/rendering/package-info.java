/**
 * The pods a Muster Job makes, as one pure function ({@link dev.muster.rendering.JobPodRenderer}) of the Job
 * and its plugins' pod edits ({@code dev.muster.rendering.plugin}). The Job controller creates a job's pods
 * from it and the gang scheduler admits a waiting job's gang from it, so the two always agree about the
 * pods; the objects plugins make beside the pods stay the Job controller's. Depends only on the API types.
 */
package dev.muster.rendering;
