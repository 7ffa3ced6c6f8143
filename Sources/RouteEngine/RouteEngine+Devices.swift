import Contract
import TraceModel

// External devices: connects and disconnects in the connection order (R4, R5, R14), with the engine's
// device limit, and the flush windows they open (R15).
extension RouteEngine {
    /// R4, R14, R15: a connect moves the device last in the connection order; with the engine's device limit.
    /// It closes a flush window only when it is an opening event (it then opens a new one).
    mutating func deviceConnected(_ device: ConnectedDevice, _ record: Record, into out: inout RouteSink) {
        syncDeviceIDs()
        let changesDevices = deviceIDs.contains(device.id) || state.devices.count < Self.deviceLimit
        if changesDevices && opensFlushWindow { closeFlushWindow(t: record.t, into: &out) }
        if deviceIDs.contains(device.id) { state.devices.removeAll { $0.id == device.id } }
        guard state.devices.count < Self.deviceLimit else {
            deviceIDs.remove(device.id)
            guard !state.deviceLimitReported else { return }
            state.deviceLimitReported = true
            out.append(.finding(deviceLimitFinding(record)))
            return
        }
        state.devices.append(device)
        deviceIDs.insert(device.id)
        // I13: a device that can take the route ends iOS's choice.
        if state.callKitChoice != nil, state.canTakeRoute(device) { state.callKitChoice = nil }
        openFlushWindow(openedBy: record.seq, t: record.t, reading: sameMs(at: record.t)?.reading, into: &out)
    }

    /// R5, R15: a disconnect of a connected device falls back; of an unknown id, it changes nothing. Like a
    /// connect, it closes a flush window only when it is an opening event.
    mutating func deviceDisconnected(_ id: String, _ record: Record, into out: inout RouteSink) {
        syncDeviceIDs()
        guard deviceIDs.contains(id) else { return }
        if opensFlushWindow { closeFlushWindow(t: record.t, into: &out) }
        deviceIDs.remove(id)
        state.devices.removeAll { $0.id == id }
        openFlushWindow(openedBy: record.seq, t: record.t, reading: sameMs(at: record.t)?.reading, into: &out)
    }

    /// Rebuilds the id index when the state's devices were changed from outside (or by a leave).
    mutating func syncDeviceIDs() {
        if deviceIDs.count != state.devices.count { deviceIDs = Set(state.devices.map(\.id)) }
    }
}
