/**
 * Job plugins as the pods see them ({@link dev.muster.rendering.plugin.PodPlugin}): their names, arguments
 * (read as Volcano's, {@link dev.muster.rendering.plugin.PluginArgs}), validation, and what each adds to a
 * pod (env, volumes and mounts, ports, hostname and subdomain; {@link dev.muster.rendering.plugin.PodEdits}),
 * registered in {@link dev.muster.rendering.plugin.PodPlugins}. See {@code docs/plugins.md}.
 */
package dev.muster.rendering.plugin;
