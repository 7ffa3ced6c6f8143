import TraceCodec
import TraceModel

/// Merges imported records into a trace's by time: the trace's records keep their order, an imported
/// record goes after every record of the trace at or before its `t`, seqs are renumbered from the
/// trace's first, and the expectations' references to seqs follow them.
enum TraceMerge {
    static func merge(_ trace: [Record], _ added: [(t: Int64, body: RecordBody)]) throws -> (records: [Record], added: [Record], seqs: [Int: Int]) {
        var out: [Record] = []
        out.reserveCapacity(trace.count + added.count)
        var seqs: [Int: Int] = [:]
        var next = trace.first?.seq ?? 0
        var imported: [Record] = []
        var j = 0
        for r in trace {
            while j < added.count, added[j].t < r.t {
                let n = Record(seq: next, t: added[j].t, added[j].body)
                out.append(n)
                imported.append(n)
                next += 1
                j += 1
            }
            seqs[r.seq] = next
            out.append(Record(seq: next, t: r.t, r.body))
            next += 1
        }
        while j < added.count {
            let n = Record(seq: next, t: added[j].t, added[j].body)
            out.append(n)
            imported.append(n)
            next += 1
            j += 1
        }
        let past = next
        func map(_ seq: Int) -> Int { seqs[seq] ?? past + seq }
        for i in out.indices {
            switch out[i].body {
            case .expect(let e):
                out[i].body = .expect(remapped(e, map))
            case .unknown(let type, let json):
                guard let line = RecordDecoder.replacingSeqAndTime(in: Array(json.utf8), seq: out[i].seq, t: out[i].t) else {
                    throw LogImportError(ImportWords.unknownTypeNotRenumbered(seq: out[i].seq, type: TextCap.clip(type)), .refusal)
                }
                out[i].body = .unknown(type: type, json: String(decoding: line, as: UTF8.self))
            case .header, .joinChannel, .leaveChannel, .enterMeeting, .exitMeeting, .setDefaultRoute, .setRoute, .clearRouteOverride,
                 .setAudioModuleEnabled, .subscribe, .switchLayer, .deviceConnected, .deviceDisconnected, .micPermission,
                 .interruptionBegan, .interruptionEnded, .callState, .appState, .mediaServicesReset, .callKit, .routeChanged,
                 .routeSnapshot, .sessionActivated, .sessionDeactivated, .overrideOutput, .sdkInterrupted, .sdkRecovered,
                 .sdkCallStateChanged, .sdkQualityChanged, .sdkActiveSpeakers, .sdkLayerSwitched, .sdkError, .sdkLog, .connEngine,
                 .connState, .qualityReport, .speakers, .srvLayerSwitched, .dropped, .checkpoint, .report, .paused, .system:
                // No seq inside: times and ranges of `t` stay as they are.
                break
            }
        }
        return (out, imported, seqs)
    }

    /// An expectation with its references to records' seqs mapped (a divergence's index is no seq).
    static func remapped(_ e: Expectation, _ map: (Int) -> Int) -> Expectation {
        var o = e
        func ref(_ r: Expectation.RecordRef?) -> Expectation.RecordRef? { r.map { $0.seq.map { .seq(map($0)) } ?? Expectation.RecordRef.none } }
        switch e.kind {
        case let .verdict(seq, verdict, cause): o.kind = .verdict(ref: map(seq), verdict: verdict, cause: cause)
        case let .outcome(seq, outcome, cause, by): o.kind = .outcome(ref: map(seq), outcome: outcome, cause: cause, by: ref(by))
        case let .predictedBy(index, rule, seq, appliedBy, explanation):
            o.kind = .predictedBy(ref: index, rule: rule, seq: ref(seq), appliedBy: ref(appliedBy), explanation: explanation)
        case .damage(let lost):
            // A lost range is named by the seqs around it, which the renumbering moves.
            o.kind = .damage(lost: lost.map { r in
                let from = r.lowerBound > 0 ? map(r.lowerBound - 1) + 1 : r.lowerBound
                return from...max(from, from + r.upperBound - r.lowerBound)
            })
        case .route, .target, .override, .engaged, .audioModule, .interrupted, .quality, .qualityChanges, .speakers, .finding,
             .noFinding, .divergences:
            break
        }
        return o
    }
}
