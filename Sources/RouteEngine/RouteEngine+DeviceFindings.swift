import Contract
import TraceModel

// The device.* findings: a trace from a device the route contract says nothing about (R10, R16), phrased in
// `FindingWords+App.swift`.
extension RouteEngine {
    /// R10: the trace comes from a simulator.
    func simulatorFinding(_ record: Record) -> Finding {
        Finding(code: .deviceSimulator, severity: .warning, rule: .R10, seqs: [record.seq], t: record.t, FindingWords.simulator)
    }

    /// R16: a macOS trace.
    func notIOSFinding(_ record: Record, os: String) -> Finding {
        Finding(code: .deviceNotIOS, severity: .info, rule: .R16, seqs: [record.seq], t: record.t, FindingWords.notIOS(os: os, words))
    }
}
