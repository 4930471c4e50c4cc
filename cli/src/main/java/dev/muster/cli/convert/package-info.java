/**
 * {@code muster convert}: Volcano manifests (vcjobs, Queues, PodGroups, and the pod specs of other kinds that
 * name Volcano's scheduler) rewritten as Muster's, each change and each field that cannot be carried said.
 * Pure functions of parsed documents; {@code cli.ConvertCommand} reads and prints them.
 */
package dev.muster.cli.convert;
