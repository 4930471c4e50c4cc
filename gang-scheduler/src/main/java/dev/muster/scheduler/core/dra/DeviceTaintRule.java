package dev.muster.scheduler.core.dra;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A DeviceTaintRule: one taint that an administrator puts on every device its selector picks, with the same effect
 * as if the driver had listed it in the device's ResourceSlice ({@code devices[].taints}). Selection is as
 * kube-scheduler's ResourceSlice tracker applies a rule (Kubernetes 1.34): each field that is set must match
 * (driver, pool and device name; the named DeviceClass's selectors, and the rule's own CEL selectors, which
 * Kubernetes 1.35 dropped); a rule whose {@code deviceClassName} names no existing class selects nothing; a device
 * on which a selector fails to evaluate is not selected; and a rule without {@code deviceSelector} selects every
 * device (the API's field doc says none, the tracker's code taints all, and the scheduler is what decides).
 *
 * @param name            the rule's name
 * @param driver          {@code spec.deviceSelector.driver}, or {@code null}
 * @param pool            {@code spec.deviceSelector.pool}, or {@code null}
 * @param device          {@code spec.deviceSelector.device}, or {@code null}
 * @param deviceClassName {@code spec.deviceSelector.deviceClassName}, or {@code null}
 * @param selectors       {@code spec.deviceSelector.selectors[].cel.expression}
 * @param taint           {@code spec.taint}
 */
public record DeviceTaintRule(String name, String driver, String pool, String device, String deviceClassName,
                              List<String> selectors, DeviceTaint taint) {
    public DeviceTaintRule {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(taint, "taint");
        selectors = selectors == null ? List.of() : List.copyOf(selectors);
    }

    /**
     * Whether the rule taints the device.
     *
     * @param classes the DeviceClasses by name
     */
    public boolean selects(Device candidate, Map<String, DeviceClass> classes) {
        if (driver != null && !driver.equals(candidate.driver()) || pool != null && !pool.equals(candidate.pool())
                || device != null && !device.equals(candidate.name())) {
            return false;
        }
        if (deviceClassName != null) {
            DeviceClass deviceClass = classes.get(deviceClassName);
            if (deviceClass == null || !passes(deviceClass.selectors(), candidate)) {
                return false;
            }
        }
        return passes(selectors, candidate);
    }

    /**
     * Why the rule selects no device whatever the devices are, naming the field, or {@code null}: a selector that
     * does not compile in Muster's CEL environment (the API server compiled it in its own, which has
     * {@code semver()} and {@code quantity()}: see {@link DeviceSelectors}).
     */
    public String selectsNothing() {
        for (int i = 0; i < selectors.size(); i++) {
            String error = DeviceSelectors.compileError(selectors.get(i));
            if (error != null) {
                return "spec.deviceSelector.selectors[" + i + "].cel.expression does not compile in scheduler muster: "
                        + error;
            }
        }
        return null;
    }

    /**
     * The slices with each rule's taint added to the devices it selects, in the rules' order after the driver's
     * own; slices no rule touches are returned as they are.
     */
    public static List<DeviceSlice> apply(List<DeviceSlice> slices, List<DeviceTaintRule> rules,
                                          Map<String, DeviceClass> classes) {
        if (rules.isEmpty()) {
            return slices;
        }
        List<DeviceSlice> tainted = new ArrayList<>(slices.size());
        for (DeviceSlice slice : slices) {
            List<Device> devices = null;
            for (int i = 0; i < slice.devices().size(); i++) {
                Device device = slice.devices().get(i);
                List<DeviceTaint> added = null;
                for (DeviceTaintRule rule : rules) {
                    if (rule.selects(device, classes)) {
                        added = added == null ? new ArrayList<>(device.taints()) : added;
                        added.add(rule.taint());
                    }
                }
                if (added != null) {
                    devices = devices == null ? new ArrayList<>(slice.devices()) : devices;
                    devices.set(i, device.withTaints(added));
                }
            }
            tainted.add(devices == null ? slice : slice.withDevices(devices));
        }
        return tainted;
    }

    private static boolean passes(List<String> expressions, Device candidate) {
        for (String expression : expressions) {
            if (!DeviceSelectors.matches(expression, candidate)) {
                return false;
            }
        }
        return true;
    }
}
