// A second reading of contract v3's quality, speaker and layer rules for the property tests, written from
// contract.md and sharing no code with the engine: Q7 (what a reconnect is), S1–S3 (the derived snapshots
// and which of them the SDK answered), L1, L2 and L4 (switchLayer's verdict and a send failure), L3 as far
// as L4 reads it, and T2 (values out of range, once per record type and field).
import TraceModel

struct QualityModel {
    struct Snapshot {
        var seq: Int
        var t: Int64
        var keys: [SpeakerKey]
        var answered = false
    }

    struct Switch {
        var seq: Int
        var t: Int64
        var pub: String, track: String, target: String
        var matched = false
    }

    /// What one record is expected to cause.
    struct Expected {
        var reconnect = false
        var verdict: (kind: VerdictKind, cause: VerdictCause?)?
        var rejected: Int?
        var outOfRange: [String] = []
        var notConfirmed: [Int] = []
    }

    let window: Int64 = 1000, confirmTimeout: Int64 = 3000
    var sfu = true
    var transport: ConnState = .connecting
    var connectedBefore = false
    var levels: [SpeakerKey: Double] = [:]
    var snapshots: [Snapshot] = []
    var subscriptions: [String: [String]] = [:]
    var accepted: [Switch] = []
    /// Accepted switches still waiting for the server's confirmation (L3), by track.
    var pending: [String: Switch] = [:]
    var lastCall: Int?
    var reported: Set<String> = []
    var sawAnswers = false

    /// S2's order: level, highest first; ties by uid, then trackId.
    var derived: [SpeakerKey] {
        levels.sorted { a, b in a.value != b.value ? a.value > b.value : a.key.uid != b.key.uid ? a.key.uid < b.key.uid : a.key.trackId < b.key.trackId }
            .map(\.key)
    }

    /// L3's timeouts that fall due at or before `t` (the replay fires them before the record).
    mutating func expire(before t: Int64) -> [Int] {
        let due = pending.values.filter { $0.t + confirmTimeout < t }.map(\.seq).sorted()
        pending = pending.filter { !due.contains($0.value.seq) }
        return due
    }

    mutating func apply(_ record: Record) -> Expected {
        var e = Expected()
        e.notConfirmed = expire(before: record.t)
        let (seq, t) = (record.seq, record.t)
        func range(_ field: String, _ values: [Double?], _ bounds: ClosedRange<Double>) {
            guard !reported.contains(field), values.contains(where: { $0.map { !bounds.contains($0) } ?? false }) else { return }
            reported.insert(field)
            e.outOfRange.append(field)
        }
        switch record.body {
        case .connEngine(let vendor):
            sfu = vendor == .seaStart
            if !sfu { levels = [:] }
        case .connState(let state):
            let before = transport
            transport = state
            if state == .connected {
                e.reconnect = connectedBefore && before != .connected
                connectedBefore = true
                if e.reconnect { levels = [:] }
            }
        case let .qualityReport(pub, sub):
            range("srv.qualityReport.score", [pub.score, sub.score], 0...100)
            range("srv.qualityReport.mos", [pub.mos, sub.mos], 1.0...4.5)
            range("srv.qualityReport.loss", [pub.loss, sub.loss], 0...1)
            for (name, a, b) in [("rtt", pub.rtt, sub.rtt), ("jitter", pub.jitter, sub.jitter), ("bitrate", pub.bitrate, sub.bitrate)] {
                range("srv.qualityReport." + name, [a, b], 0...Double.greatestFiniteMagnitude)
            }
        case let .sdkQualityChanged(_, _, mos):
            range("sdk.qualityChanged.mos", [mos], 1.0...4.5)
        case let .speakers(speaking, stopped):
            range("srv.speakers.level", speaking.map(\.level), 0...1)
            guard sfu else { break }
            for s in speaking { levels[SpeakerKey(uid: s.uid, trackId: s.trackId)] = s.level }
            for k in stopped { levels[k] = nil }
            snapshots.append(Snapshot(seq: seq, t: t, keys: derived))
        case .sdkActiveSpeakers(let speakers):
            range("sdk.activeSpeakers.level", speakers.map(\.level), 0...1)
            sawAnswers = true
            let keys = speakers.map { SpeakerKey(uid: $0.uid, trackId: $0.trackId) }, current = derived
            for i in snapshots.indices where !snapshots[i].answered && snapshots[i].t <= t && t - snapshots[i].t <= window {
                // An equal answer answers the snapshots it equals; a mismatch answers every one in its window.
                if keys != current || snapshots[i].keys == current { snapshots[i].answered = true }
            }
        case let .subscribe(pub, track, layers):
            subscriptions[pub + "/" + track] = layers
        case let .switchLayer(pub, track, target):
            lastCall = seq
            let key = pub + "/" + track
            if !sfu {
                e.verdict = (.rejected, .engineNotSupported)
            } else if transport != .connected {
                e.verdict = (.rejected, .transportNotReady)
            } else if let layers = subscriptions[key], !layers.contains(target) {
                e.verdict = (.ineffective, .targetNotInCandidates)
            } else {
                e.verdict = (.applied, nil)
                let call = Switch(seq: seq, t: t, pub: pub, track: track, target: target)
                accepted.append(call)
                pending[key] = call
            }
        case .srvLayerSwitched(let info):
            let key = info.pubUid + "/" + info.trackId
            if sfu, info.reason == "client", pending[key]?.target == info.toTrackId { pending[key] = nil }
        case let .sdkError(api, error):
            guard api.hasPrefix("switchLayer") else { break }
            if error.hasPrefix("webrtcError") {
                // L4: the latest accepted call within the match window that no error matched yet.
                guard let i = accepted.lastIndex(where: { !$0.matched && $0.t <= t && t - $0.t <= window }) else { break }
                accepted[i].matched = true
                e.rejected = accepted[i].seq
                pending = pending.filter { $0.value.seq != accepted[i].seq }
            } else if let last = pending.values.max(by: { $0.seq < $1.seq }), last.seq == lastCall {
                // Decided: another switchLayer error right after an accepted call means it threw; nothing was sent.
                pending[last.pub + "/" + last.track] = nil
                if let i = accepted.firstIndex(where: { $0.seq == last.seq }) { accepted[i].matched = true }
            }
        default:
            break
        }
        return e
    }

    /// S3 at the end of a trace that ended at `end`: the derived snapshots no answer answered, whose whole
    /// window passed, in a trace that records the SDK's snapshots.
    func missed(end: Int64) -> [Int] {
        guard sawAnswers else { return [] }
        return snapshots.filter { !$0.answered && $0.t + window < end }.map(\.seq)
    }
}
