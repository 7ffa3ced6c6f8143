import Replay
import TraceCodec
import TraceModel

extension DiffSide {
    /// Reads and replays one trace (a single file, or a session's parts in part order) as one side;
    /// reader problems are recorded in the result (and passed to `onProblem`). A file that cannot be
    /// opened is thrown with `unopened: .fails`, else a problem of the result.
    package static func replay(_ session: TraceSession, options: ReplayOptions = ReplayOptions(), unopened: UnopenedFile = .fails,
                              onProblem: (TraceProblem) -> Void = { _ in }) throws -> DiffSide {
        var side = DiffSide(file: session.first, result: ReplayResult(file: session.first))
        side.result = try Replay.run(session, options: options, unopened: unopened, onRecord: { side.note($0) }, onProblem: onProblem)
        side.levelChanges = side.result.levelChanges
        return side
    }

    /// Replays records already in memory (tests).
    package static func replay(records: [Record], file: String = "<memory>", options: ReplayOptions = ReplayOptions()) -> DiffSide {
        var side = DiffSide(file: file, result: ReplayResult(file: file))
        for r in records { side.note(r) }
        side.result = Replay.run(records: records, file: file, options: options)
        side.levelChanges = side.result.levelChanges
        return side
    }

    /// Keeps a record's identity; headers and expectations are not behaviour and are not compared.
    mutating func note(_ r: Record) {
        if case .header = r.body {
            if header == nil { header = DiffRecord(seq: r.seq, t: r.t, type: r.type) }
            return
        }
        // Expectations are not behaviour, nor is a checkpoint (it restates the state at a part's start).
        if case .expect = r.body { return }
        if case .checkpoint = r.body { return }
        let id: Int32
        if case let .qualityReport(pub, sub) = r.body {
            // A large part of a long trace, with few identities (a level each side): each made once.
            let levels = QualityLevel.allCases.count, i = pub.level.rank * levels + sub.level.rank
            if qualityIdentities.isEmpty { qualityIdentities = Array(repeating: nil, count: levels * levels) }
            if qualityIdentities[i] == nil { qualityIdentities[i] = identityID(r.body) }
            id = qualityIdentities[i]!
        } else {
            id = identityID(r.body)
        }
        append(seq: r.seq, t: r.t, id: id)
    }

    /// Appends a compared record with identity `id`.
    mutating func append(seq: Int, t: Int64, id: Int32) {
        indexBySeq[seq] = records.count
        records.append(Keyed(seq: seq, t: t, id: id))
    }

    /// The index of a body's identity in `identities`, added there when it is new.
    mutating func identityID(_ body: RecordBody) -> Int32 {
        let (key, label) = Self.identity(body)
        let type = body.type
        if let known = identityIndex[key], identities[Int(known)].type == type { return known }
        let id = Int32(identities.count)
        identities.append(Identity(type: type, key: key, label: label, isCall: type.hasPrefix("api.")))
        // A key met before with another type (a hash's collision) keeps the first in the index.
        if identityIndex[key] == nil { identityIndex[key] = id }
        return id
    }

    /// Keeps the identity of a high-rate record as the reader decoded it (`r`, its strings and lists in
    /// `batch`): where its type's identity reads only small fields of it, each distinct identity is made
    /// once, from the record made whole (`whole`); else from the whole record every time.
    mutating func note(compact r: ReplayRecord, in batch: RecordBatch, whole: () -> Record) {
        guard let slot = Self.identitySlot(r, batch) else { return note(whole()) }
        if compactIdentities.isEmpty { compactIdentities = Array(repeating: nil, count: Self.identitySlots) }
        if compactIdentities[slot] == nil { compactIdentities[slot] = identityID(whole().body) }
        append(seq: r.seq, t: r.t, id: compactIdentities[slot]!)
    }

    static let identitySlots = 128

    /// A slot for the identity of a high-rate record by the fields `RecordBody.identity` reads of its type;
    /// nil where it reads a string (a device's id) or the type is not read from fields.
    static func identitySlot(_ r: ReplayRecord, _ batch: RecordBatch) -> Int? {
        guard let kind = r.kind, !r.hasFull else { return nil }
        let levels = QualityLevel.allCases.count
        switch kind {
        case .qualityReport:
            return Int(batch.samples[r.samplesAt].level.index) * levels + Int(batch.samples[r.samplesAt + 1].level.index)
        case .sdkQualityChanged: return 32 + Int(r.overall.index) * levels + Int(r.previousLevel.index)
        case .routeChanged: return 64 + Int(r.route.index) * RouteChangeReason.allCases.count + Int(r.reason.index)
        case .routeSnapshot: return 112 + Int(r.route.index)
        case .setRoute: return 120 + Int(r.target.index)
        case .speakers: return 124
        case .sdkActiveSpeakers: return 125
        case .sdkLog: return 126
        case .clearRouteOverride: return 127
        case .deviceConnected, .deviceDisconnected: return nil
        case .header, .dropped, .checkpoint, .report, .paused, .joinChannel, .leaveChannel, .enterMeeting, .exitMeeting, .setDefaultRoute,
             .setAudioModuleEnabled, .subscribe, .switchLayer, .micPermission, .interruptionBegan, .interruptionEnded, .callState,
             .appState, .mediaServicesReset, .callKit, .sessionActivated, .sessionDeactivated, .overrideOutput, .sdkInterrupted,
             .sdkRecovered, .sdkCallStateChanged, .sdkLayerSwitched, .sdkError, .connEngine, .connState, .srvLayerSwitched,
             .sysSessionActivated, .sysRouteChanged, .sysPropertySet, .sysPlaying, .sysAppState:
            return nil
        }
    }

    /// The key and the label kept of a record's body: the key hashes the whole label; the label kept to
    /// print is cut (a diff keeps one per record).
    static func identity(_ body: RecordBody) -> (key: UInt64, label: String) {
        let label = label(body)
        return (StableHash.fnv1a64(label), TextCap.clip(label, 2 * TextCap.characters))
    }

    /// A record's type and identifying fields in words: what pairs it with its counterpart.
    static func label(_ body: RecordBody) -> String {
        let fields = body.identity
        return fields.isEmpty ? body.type : body.type + " " + fields
    }
}
