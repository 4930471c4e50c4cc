/**
 * Dynamic Resource Allocation (structured parameters, {@code resource.k8s.io/v1}) as plain data: the
 * devices drivers publish in ResourceSlices ({@link dev.muster.scheduler.core.dra.DeviceSlice},
 * {@link dev.muster.scheduler.core.dra.Device}), DeviceClasses, the claims pods make
 * ({@link dev.muster.scheduler.core.dra.DeviceClaim}), CEL selectors compiled once
 * ({@link dev.muster.scheduler.core.dra.DeviceSelectors}), the allocator that finds devices for a pod's
 * claims on one node ({@link dev.muster.scheduler.core.dra.DeviceAllocator}) and the per-cycle record of what is allocated,
 * which a gang trial changes and undoes ({@link dev.muster.scheduler.core.dra.DeviceLedger}).
 */
package dev.muster.scheduler.core.dra;
