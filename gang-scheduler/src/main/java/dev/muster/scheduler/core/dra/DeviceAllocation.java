package dev.muster.scheduler.core.dra;

import java.util.List;

/**
 * A claim's {@code status.allocation}: the devices it holds and where they can be used.
 *
 * @param devices  the devices, one entry per device
 * @param nodeName the node the devices are on; {@code null} when they are all network-attached
 * @param config   the config of the requests' classes and of the claim, for the driver ({@code devices.config})
 */
public record DeviceAllocation(List<AllocatedDevice> devices, String nodeName, List<DeviceConfig> config) {
    public DeviceAllocation {
        devices = List.copyOf(devices);
        config = config == null ? List.of() : List.copyOf(config);
    }

    /** An allocation without config. */
    public DeviceAllocation(List<AllocatedDevice> devices, String nodeName) {
        this(devices, nodeName, List.of());
    }

    /**
     * One allocated device.
     *
     * @param request     the request it satisfies: its name, or {@code request/subrequest} for firstAvailable
     * @param driver      the driver
     * @param pool        the pool
     * @param device      the device's name
     * @param tolerations the request's tolerations, which the allocation carries (as kube-scheduler's does) so
     *                    that the eviction controller of {@code NoExecute} taints knows what the claim tolerates
     */
    public record AllocatedDevice(String request, String driver, String pool, String device,
                                  List<DeviceToleration> tolerations) {
        public AllocatedDevice {
            tolerations = tolerations == null ? List.of() : List.copyOf(tolerations);
        }

        /** An allocated device of a request without tolerations. */
        public AllocatedDevice(String request, String driver, String pool, String device) {
            this(request, driver, pool, device, List.of());
        }

        /** The device's identity, as {@link Device#id()}. */
        public String id() {
            return driver + "/" + pool + "/" + device;
        }
    }
}
