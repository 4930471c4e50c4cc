/**
 * The files given to {@code ./muster local}: read, typed and checked all together before anything is applied.
 * Here beside the emulator rather than in the command line because the manager's end-to-end tests apply the
 * repository's examples through it too, and the manager may depend on the emulator in its tests only.
 */
package dev.muster.local.manifest;
