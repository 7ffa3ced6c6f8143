/// What the replay records being replayed refer to: the side buffers of their lists (speakers, quality
/// samples, ports), the whole records kept beside them, and the replay's symbol table. Reused: the driver
/// empties the buffers (keeping their storage) whenever no record it holds refers to them, so a replay
/// allocates nothing per record once they have grown to the largest batch.
public final class ReplayArena {
    /// The replay's strings.
    public let symbols: SymbolTable
    // One replay uses an arena, on one thread at a time: its accesses need no run-time exclusivity check.
    /// Speaker entries (`srv.speakers`, `sdk.activeSpeakers`).
    @exclusivity(unchecked) public var speakers: [SpeakerRef] = []
    /// Quality samples (`srv.qualityReport`: pub, then sub).
    @exclusivity(unchecked) public var samples: [QualitySample] = []
    /// Lists of strings (`obs.routeSnapshot` ports).
    @exclusivity(unchecked) public var lists: [Symbol] = []
    /// Whole records: every type without fields of its own here, and every record when they are kept whole
    /// (`keepsWhole`).
    @exclusivity(unchecked) public var full: [Record] = []
    /// Whether every record is kept whole too (someone observes the replay, or reads every record).
    public var keepsWhole: Bool

    /// An empty arena around `symbols`.
    public init(symbols: SymbolTable = SymbolTable(), keepsWhole: Bool = false) {
        self.symbols = symbols
        self.keepsWhole = keepsWhole
        // In a dense trace the lists grow to their bound (`mustReset`: the ordering stage holds records) before
        // they are emptied; reserved at once, they are never copied to grow (a pair of samples, 112 bytes, per
        // quality report). Pages not written are not resident, so a short trace does not pay for the bound.
        speakers.reserveCapacity(Self.resetSize * 8)
        samples.reserveCapacity(Self.resetSize * 8)
    }

    /// Entries in the buffers past which the driver empties them as soon as no record it holds refers to
    /// them (`needsReset`): emptying after every record would cost more than it saves.
    @inlinable public static var resetSize: Int { 4096 }

    /// Whether the buffers hold enough to be emptied when nothing refers to them.
    @inlinable
    public var needsReset: Bool { speakers.count + samples.count + lists.count + full.count * 16 >= Self.resetSize }

    /// Whether the buffers hold so much that the driver replays the records it holds to empty them
    /// (`ReplayOrder` holds a match window of records, which may never be empty in a dense trace).
    @inlinable @inline(__always)
    public var mustReset: Bool { speakers.count + samples.count + lists.count + full.count * 16 >= Self.resetSize * 8 }

    /// Empties every buffer, keeping its storage.
    public func reset() {
        speakers.removeAll(keepingCapacity: true)
        samples.removeAll(keepingCapacity: true)
        lists.removeAll(keepingCapacity: true)
        if !full.isEmpty { full.removeAll(keepingCapacity: true) }
    }

    /// Keeps a whole record; returns its index.
    public func keep(_ r: Record) -> Int32 {
        full.append(r)
        return Int32(full.count - 1)
    }

    /// The whole record of `r`.
    public func record(_ r: ReplayRecord) -> Record {
        if r.hasFull { return full[Int(r.full)] }
        return Record(seq: r.seq, t: r.t, body(r))
    }

    /// The speakers of a range of `speakers`, as the record model writes them.
    public func speakerList(_ range: Range<Int>) -> [Speaker] {
        speakers[range].map { Speaker(uid: symbols.text($0.uid), trackId: symbols.text($0.track), level: $0.level) }
    }

    /// The body of a record of a high-rate type, made from its fields.
    private func body(_ r: ReplayRecord) -> RecordBody {
        guard let kind = r.kind else { preconditionFailure("a record without a type is kept whole") }
        switch kind {
        case .qualityReport: return .qualityReport(pub: samples[r.samplesAt], sub: samples[r.samplesAt + 1])
        case .speakers:
            return .speakers(speaking: speakerList(r.speaking), stopped: speakers[r.stopped].map {
                SpeakerKey(uid: symbols.text($0.uid), trackId: symbols.text($0.track))
            })
        case .sdkActiveSpeakers: return .sdkActiveSpeakers(speakers: speakerList(r.speakers))
        case .sdkQualityChanged: return .sdkQualityChanged(overall: r.overall, previous: r.previousLevel, mos: r.mos)
        case .routeChanged: return .routeChanged(route: r.route, previousRoute: r.previousRoute, reason: r.reason)
        case .routeSnapshot: return .routeSnapshot(route: r.route, ports: r.ports.map { lists[$0].map { symbols.text($0) } })
        case .setRoute: return .setRoute(target: r.target, api: symbols.string(r.api))
        case .clearRouteOverride: return .clearRouteOverride
        case .deviceConnected:
            let (listed, unlisted) = r.deviceKind
            let kind = listed.map { DeviceKind.listed[$0] } ?? .unlisted(symbols.text(unlisted))
            return .deviceConnected(id: symbols.text(r.deviceID), kind: kind, name: symbols.string(r.deviceName),
                                    port: symbols.string(r.devicePort))
        case .deviceDisconnected: return .deviceDisconnected(id: symbols.text(r.deviceID))
        case .sdkLog, .header, .dropped, .checkpoint, .report, .paused, .joinChannel, .leaveChannel, .enterMeeting, .exitMeeting, .setDefaultRoute,
             .setAudioModuleEnabled, .subscribe, .switchLayer, .micPermission, .interruptionBegan, .interruptionEnded, .callState,
             .appState, .mediaServicesReset, .callKit, .sessionActivated, .sessionDeactivated, .overrideOutput, .sdkInterrupted,
             .sdkRecovered, .sdkCallStateChanged, .sdkLayerSwitched, .sdkError, .connEngine, .connState, .srvLayerSwitched,
             .sysSessionActivated, .sysRouteChanged, .sysPropertySet, .sysPlaying, .sysAppState:
            preconditionFailure("a \(kind.rawValue) record is kept whole where it is read")
        }
    }

    /// Takes a whole record: the replay record with the fields of its type (strings interned, lists in the
    /// side buffers), the record itself kept whole where no fields of its own carry it, or everywhere when
    /// `keepsWhole`.
    public func take(_ record: Record) -> ReplayRecord {
        var r = ReplayRecord(seq: record.seq, t: record.t, kind: record.body.kind)
        var whole = keepsWhole
        switch record.body {
        case let .qualityReport(pub, sub):
            r.setQualityReport(samplesAt: samples.count)
            samples.append(pub)
            samples.append(sub)
        case let .speakers(speaking, stopped):
            r.setSpeakers(start: speakers.count, speaking: speaking.count, stopped: stopped.count)
            for s in speaking { speakers.append(SpeakerRef(uid: symbols.intern(s.uid), track: symbols.intern(s.trackId), level: s.level)) }
            for k in stopped { speakers.append(SpeakerRef(uid: symbols.intern(k.uid), track: symbols.intern(k.trackId), level: 0)) }
        case .sdkActiveSpeakers(let list):
            r.setActiveSpeakers(start: speakers.count, count: list.count)
            for s in list { speakers.append(SpeakerRef(uid: symbols.intern(s.uid), track: symbols.intern(s.trackId), level: s.level)) }
        case let .sdkQualityChanged(overall, previous, mos):
            r.setQualityChanged(overall: overall, previous: previous, mos: mos)
        case let .routeChanged(route, previous, reason):
            r.setRouteChanged(route: route, previous: previous, reason: reason)
        case let .routeSnapshot(route, ports):
            let start = lists.count
            for p in ports ?? [] { lists.append(symbols.intern(p)) }
            r.setRouteSnapshot(route: route, ports: ports.map { _ in start..<lists.count })
        case let .setRoute(target, api):
            r.setSetRoute(target: target, api: symbols.intern(api).id)
        case .clearRouteOverride:
            break
        case let .deviceConnected(id, kind, name, port):
            r.setDeviceConnected(id: symbols.intern(id).id, kind: kind.listedIndex, unlisted: symbols.intern(kind.unlistedValue).id,
                                 name: symbols.intern(name).id, port: symbols.intern(port).id)
        case .deviceDisconnected(let id):
            r.setDeviceDisconnected(id: symbols.intern(id).id)
        case .sdkLog:
            // Nothing of it is compared: only a reader of the whole record reads its text.
            break
        case .header, .dropped, .checkpoint, .report, .paused, .joinChannel, .leaveChannel, .enterMeeting, .exitMeeting, .setDefaultRoute,
             .setAudioModuleEnabled, .subscribe, .switchLayer, .micPermission, .interruptionBegan, .interruptionEnded, .callState,
             .appState, .mediaServicesReset, .callKit, .sessionActivated, .sessionDeactivated, .overrideOutput, .sdkInterrupted,
             .sdkRecovered, .sdkCallStateChanged, .sdkLayerSwitched, .sdkError, .connEngine, .connState, .srvLayerSwitched,
             .system, .expect, .unknown:
            whole = true
        }
        if whole { r.full = keep(record) }
        return r
    }
}
