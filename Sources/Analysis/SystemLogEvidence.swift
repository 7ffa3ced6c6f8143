import Contract
import Replay
import TraceModel

/// What the device's system log adds to an explanation (contract E1): the `sys.*` records the replay
/// indexed name causes where the contract leaves a name open. They change no state, verdict, outcome or
/// divergence (the engines pass them by), and raise no finding of their own: each item here cites one
/// beside a finding or an interruption the trace's own records decided.
///
/// - R12's `session.changedByOtherComponent` names the component: a `sys.sessionActivated` or
///   `sys.propertySet` within the match window before the change (another process first; the app's own
///   process is "another component of the app").
/// - An `os.interruptionBegan` whose cause is `unknown` or missing takes the cause of another process's
///   `sys.sessionActivated` within the match window before it (`CommCenter` a system call, `assistantd` or
///   `corespeechd` Siri, another app's process another app).
/// - `callkit.noDidActivate` and `session.callPathNotUp` cite what the system saw: a `sys.sessionActivated`
///   of the app controlled by `callservicesd`, or one that failed, within the finding's window.
///
/// A record timed by the wall clock (`timeSource` `wall`) is matched with the window widened by its stated
/// uncertainty on both sides.
package struct SystemLogEvidence: Sendable {
    /// One thing the system log names.
    package struct Item: Sendable, Equatable {
        /// What it explains.
        package enum Subject: Sendable, Equatable {
            /// A finding, by its index in `ReplayResult.findings`.
            case finding(index: Int, code: FindingCode)
            /// The `os.interruptionBegan` with this seq.
            case interruption(seq: Int)
        }
        /// What it explains.
        package var subject: Subject
        /// When that happened (the finding's `t`, the interruption's).
        package var t: Int64
        /// The `sys.*` record cited.
        package var evidenceSeq: Int
        /// Its time.
        package var evidenceT: Int64
        /// The process it is about.
        package var process: String
        /// Whether that is the app's own process.
        package var isSelf: Bool
        /// For an interruption, the cause it takes.
        package var cause: InterruptionCause?
        /// For R12, the component named: a process, or "another component of the app".
        package var component: String?
        /// What the system log says, as a reader is told it after "from the system log:" (`the component is
        /// X: X activated its audio session 342 ms before the change (seq 25)`).
        package var text: String
    }

    /// Everything the system log names, in time order.
    package let items: [Item]
    /// How many `sys.*` records the replay indexed.
    package let records: Int
    /// How their times were placed: `anchored`, `wall`, or both, with the largest stated uncertainty.
    package let timing: String?
    /// Which item cites evidence for a finding, by the finding's index: asked once per finding listed.
    private let byFinding: [Int: Int]

    /// Gathers the evidence of a replay result.
    package init(_ r: ReplayResult) {
        let system = r.recordIndex.compactMap { seq, e in e.system.map { (seq: seq, t: e.t, s: $0) } }.sorted { $0.seq < $1.seq }
        records = system.count
        let sources = Set(system.map(\.s.timeSource.rawValue)).sorted().joined(separator: " and ")
        let uncertainty = system.compactMap(\.s.uncertaintyMs).max()
        timing = system.isEmpty ? nil : "times " + sources + (uncertainty.map { ", ±\($0) ms" } ?? "")
        guard !system.isEmpty else {
            items = []
            byFinding = [:]
            return
        }
        let window = r.matchWindowMs
        let spans = OverlappingSpans(times: system.map(\.t),
                                     slacks: system.map { $0.s.timeSource == .wall ? max(0, $0.s.uncertaintyMs ?? 0) : 0 })
        /// The records whose time, widened by a wall clock's uncertainty, lies in `from...to`, in seq order.
        func within(_ from: Int64, _ to: Int64) -> [(seq: Int, t: Int64, s: SystemLogRecord)] {
            spans.indices(meeting: from, to).map { system[$0] }
        }
        var out: [Item] = []
        for (i, f) in r.findings.enumerated() {
            if f.code == .sessionChangedByOtherComponent {
                let near = within(f.t - window, f.t).filter { Self.isActivation($0.s) || Self.isPropertySet($0.s) }
                guard let e = near.last(where: { !$0.s.isSelf }) ?? near.last else { continue }
                let component = e.s.isSelf ? SystemLogWords.anotherComponentOfTheApp : e.s.processName
                let what = Self.isActivation(e.s) ? SystemLogWords.activatedSession(ofTheApp: e.s.isSelf)
                    : SystemLogWords.setProperty(e.s.summary, ofTheApp: e.s.isSelf)
                out.append(Item(subject: .finding(index: i, code: f.code), t: f.t, evidenceSeq: e.seq, evidenceT: e.t, process: e.s.process,
                                isSelf: e.s.isSelf, cause: nil, component: component,
                                text: SystemLogWords.componentChangedSession(component, isApp: e.s.isSelf, did: what,
                                                                             when: SystemLogWords.when(e.t, against: f.t), seq: e.seq)))
            } else if f.code == .callkitNoDidActivate || f.code == .sessionCallPathNotUp {
                let opened = f.seqs.first.flatMap { r.recordIndex[$0]?.t } ?? f.t
                guard let e = within(opened, f.t).last(where: { Self.systemSaw($0.s) }) else { continue }
                out.append(Item(subject: .finding(index: i, code: f.code), t: f.t, evidenceSeq: e.seq, evidenceT: e.t, process: e.s.process,
                                isSelf: e.s.isSelf, cause: nil, component: nil,
                                text: SystemLogWords.systemSaw(Self.saw(e.s), t: e.t, seq: e.seq)))
            }
        }
        for (seq, entry) in r.recordIndex where entry.type == RecordKind.interruptionBegan.rawValue
            && (entry.interruptionCause == nil || entry.interruptionCause == .unknown) {
            let near = within(entry.t - window, entry.t).filter { !$0.s.isSelf && Self.isActivation($0.s) }
            guard let e = near.last(where: { Self.cause(of: $0.s.process) != nil }), let cause = Self.cause(of: e.s.process) else { continue }
            out.append(Item(subject: .interruption(seq: seq), t: entry.t, evidenceSeq: e.seq, evidenceT: e.t, process: e.s.process, isSelf: false,
                            cause: cause, component: nil,
                            text: SystemLogWords.interruptedBy(cause, process: e.s.processName, when: SystemLogWords.when(e.t, against: entry.t),
                                                               seq: e.seq)))
        }
        items = out.sorted { ($0.t, $0.evidenceSeq) < ($1.t, $1.evidenceSeq) }
        var byFinding: [Int: Int] = [:]
        for (k, item) in items.enumerated() {
            if case .finding(let index, _) = item.subject, byFinding[index] == nil { byFinding[index] = k }
        }
        self.byFinding = byFinding
    }

    /// The item that cites evidence for finding `index`, if any.
    package func item(forFinding index: Int) -> Item? {
        byFinding[index].map { items[$0] }
    }

    /// The cause another process's activation gives an interruption: a system call for telephony, Siri
    /// for its processes, another app for any process that is not the system's; nil for a system process
    /// that is neither.
    package static func cause(of process: String) -> InterruptionCause? {
        if SystemLogVocabulary.telephony.contains(process) { return .systemCall }
        if SystemLogVocabulary.siri.contains(process) { return .siri }
        if SystemLogVocabulary.systemProcesses.contains(process) { return nil }
        return .otherApp
    }

    static func isActivation(_ s: SystemLogRecord) -> Bool {
        if case .sessionActivated(true, _, _, _) = s.event { return true }
        return false
    }

    static func isPropertySet(_ s: SystemLogRecord) -> Bool {
        if case .propertySet = s.event { return true }
        return false
    }

    /// Whether a record is what E1 lets the CallKit and call-path findings cite: an activation of the app
    /// by CallKit (`callservicesd`), or one of the app's that failed.
    static func systemSaw(_ s: SystemLogRecord) -> Bool {
        guard s.isSelf, case let .sessionActivated(ok, error, _, controlling) = s.event else { return false }
        return controlling == SystemLogVocabulary.callKit || !ok || error != nil
    }

    static func saw(_ s: SystemLogRecord) -> String {
        guard case let .sessionActivated(ok, error, _, controlling) = s.event else { return s.summary }
        if !ok || error != nil { return SystemLogWords.activationFailed(error: error, controlledBy: controlling) }
        return SystemLogWords.callKitActivated
    }
}
