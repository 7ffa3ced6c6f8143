import Contract
import TraceModel

// The device.* findings: a trace from a device the route contract says nothing about (R10, R16), in the
// layer's words.
extension RouteEngine {
    /// R10: the trace comes from a simulator.
    func simulatorFinding(_ record: Record) -> Finding {
        Finding(code: .deviceSimulator, severity: .warning, rule: .R10, seqs: [record.seq], t: record.t,
                message: "This trace was recorded on a simulator, which has no earpiece and no bluetooth route; "
                    + "earpiece requests are ineffective and routing results say nothing about a real device.",
                advice: "Audio routing must be verified on a real device.")
    }

    /// R16: a macOS trace.
    func notIOSFinding(_ record: Record, os: String) -> Finding {
        Finding(code: .deviceNotIOS, severity: .info, rule: .R16, seqs: [record.seq], t: record.t,
                message: "The header names \(TextCap.clip(os)): AudioRouteSession exists only on iOS, so the route contract "
                    + "is not applied to this trace (no predicted route, no verdict on route calls, no route divergence).",
                advice: "On macOS the app selects the output device itself, with \(words.product == "SRTC" ? "setOutputDevice(_:)" : "setAudioOutput(deviceId:)"); "
                    + "check its device list rather than route calls.")
    }
}
