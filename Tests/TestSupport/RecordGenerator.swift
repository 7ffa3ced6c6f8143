import TraceFixtures
import TraceModel

/// Random records of every type in the kind table, for the decoder equivalence tests and the
/// personal-field property test. The switch over `RecordKind` is exhaustive: a new record type does not
/// compile here until it has a generator.
package struct RecordGenerator {
    /// The random source.
    package var rng: SplitMix64
    /// Makes a string field's value (random text, or a marker naming the field).
    package var text: (inout SplitMix64) -> String
    /// Whether every optional field is present and every list non-empty (the property test needs each
    /// field filled; the equivalence tests also want them absent).
    package var full: Bool
    /// Whether every value of an open vocabulary is an unlisted one made by `text` (the property test
    /// puts its marker in them too).
    package var unlistedText: Bool

    /// A generator; `text` makes every string field's value.
    package init(seed: UInt64, full: Bool = false, unlistedText: Bool = false, text: @escaping (inout SplitMix64) -> String) {
        rng = SplitMix64(seed: seed)
        self.full = full
        self.unlistedText = unlistedText
        self.text = text
    }

    mutating func s() -> String { text(&rng) }
    mutating func maybe() -> Bool { full || rng.below(2) == 0 }
    mutating func opt() -> String? { maybe() ? s() : nil }
    mutating func bool() -> Bool { rng.below(2) == 0 }
    package mutating func int(_ n: Int) -> Int { rng.below(n) }
    mutating func count(_ n: Int) -> Int { full ? 1 + rng.below(n) : rng.below(n + 1) }
    mutating func strings(_ n: Int) -> [String] { (0..<count(n)).map { _ in s() } }
    mutating func double() -> Double {
        switch rng.below(4) {
        case 0: Double(rng.below(100))
        case 1: Double(rng.below(100_000)) / 1000
        case 2: Double(bitPattern: 0x3FF0_0000_0000_0000 | (rng.next() >> 12)) - 1
        default: Double(rng.below(5000)) * 0.001 + 1
        }
    }
    mutating func vocab<E: TraceVocabulary>(_: E.Type) -> E { Array(E.allCases)[rng.below(E.allCases.count)] }
    /// A listed value, or now and then an unlisted one (T1).
    mutating func open<E: OpenVocabulary>(_: E.Type) -> E {
        if unlistedText { return E.unlisted(s()) }
        return rng.below(5) == 0 ? E.unlisted("unlisted" + String(rng.below(100))) : E.listed[rng.below(E.listed.count)]
    }
    mutating func sample() -> QualitySample {
        QualitySample(level: vocab(QualityLevel.self), score: maybe() ? double() : nil, mos: maybe() ? double() : nil,
                      loss: maybe() ? double() : nil, rtt: double(), jitter: double(), bitrate: double())
    }
    mutating func speaker() -> Speaker { Speaker(uid: s(), trackId: s(), level: double()) }
    mutating func key() -> SpeakerKey { SpeakerKey(uid: s(), trackId: s()) }
    mutating func layer() -> LayerSwitch {
        LayerSwitch(pubUid: s(), trackId: s(), fromTrackId: opt(), toTrackId: s(), reason: s(), latencyMs: maybe() ? double() : nil)
    }
    mutating func ref() -> Expectation.RecordRef? { full || bool() ? (bool() ? Expectation.RecordRef.none : .seq(int(1000))) : nil }

    /// A random body of `kind`.
    package mutating func body(_ kind: RecordKind) -> RecordBody {
        switch kind {
        case .header:
            return .header(TraceHeader(layer: vocab(Layer.self), sdk: opt(), device: .init(model: opt(), os: opt(), simulator: bool()),
                                       app: .init(bundleId: opt(), version: opt(), micUsageDescription: bool(), backgroundAudio: bool()),
                                       startedAt: opt(), initialDefaultRoute: maybe() ? vocab(RouteTarget.self) : nil,
                                       redacted: maybe() ? vocab(RedactedBy.self) : nil,
                                       session: maybe() ? .init(id: s(), part: 1 + int(9), resumed: bool()) : nil))
        case .dropped: return .dropped(count: int(1 << 20), fromT: Int64(int(1 << 30)), toT: Int64(int(1 << 30)))
        case .checkpoint:
            return .checkpoint(TraceCheckpoint(
                defaultRoute: vocab(RouteTarget.self), override: maybe() ? vocab(RouteTarget.self) : nil, engaged: bool(),
                audioModuleEnabled: bool(), micPermission: open(MicPermission.self),
                devices: (0..<count(3)).map { _ in TraceCheckpoint.Device(id: s(), kind: open(DeviceKind.self), name: opt(), port: opt()) },
                currentRoute: maybe() ? vocab(Route.self) : nil, callState: open(CallState.self), appState: open(AppState.self),
                interrupted: bool(), transport: maybe() ? .init(engine: vocab(EngineVendor.self), state: vocab(ConnState.self)) : nil,
                session: maybe() ? .init(category: s(), mode: s(), options: strings(3)) : nil,
                source: maybe() ? vocab(TraceCheckpoint.Source.self) : nil))
        case .report: return .report(id: s(), note: opt())
        case .paused: return .paused(fromT: Int64(int(1 << 30)), toT: Int64(int(1 << 30)), reason: open(PauseReason.self))
        case .joinChannel: return .joinChannel(channel: s(), uid: opt())
        case .leaveChannel: return .leaveChannel
        case .enterMeeting: return .enterMeeting(room: s(), uid: opt())
        case .exitMeeting: return .exitMeeting
        case .setDefaultRoute: return .setDefaultRoute(target: vocab(RouteTarget.self))
        case .setRoute: return .setRoute(target: vocab(RouteTarget.self), api: opt())
        case .clearRouteOverride: return .clearRouteOverride
        case .setAudioModuleEnabled: return .setAudioModuleEnabled(enabled: bool())
        case .subscribe: return .subscribe(pubUid: s(), trackId: s(), layers: strings(4))
        case .switchLayer: return .switchLayer(pubUid: s(), trackId: s(), targetTrackId: s())
        case .deviceConnected: return .deviceConnected(id: s(), kind: open(DeviceKind.self), name: opt(), port: opt())
        case .deviceDisconnected: return .deviceDisconnected(id: s())
        case .micPermission: return .micPermission(status: open(MicPermission.self))
        case .interruptionBegan:
            return .interruptionBegan(cause: maybe() ? open(InterruptionCause.self) : nil, wasSuspended: maybe() ? bool() : nil)
        case .interruptionEnded: return .interruptionEnded(shouldResume: maybe() ? bool() : nil)
        case .callState: return .callState(state: open(CallState.self))
        case .appState: return .appState(state: open(AppState.self))
        case .mediaServicesReset: return .mediaServicesReset
        case .callKit: return .callKit(event: open(CallKitEvent.self), callId: opt())
        case .routeChanged:
            return .routeChanged(route: vocab(Route.self), previousRoute: vocab(Route.self), reason: vocab(RouteChangeReason.self))
        case .routeSnapshot: return .routeSnapshot(route: vocab(Route.self), ports: maybe() ? strings(3) : nil)
        case .sessionActivated:
            return .sessionActivated(SessionActivation(ok: bool(), error: opt(), category: opt(), mode: opt(), options: strings(4)))
        case .sessionDeactivated: return .sessionDeactivated(notifyOthers: bool(), ok: maybe() ? bool() : nil, error: opt())
        case .overrideOutput: return .overrideOutput(port: vocab(OverridePort.self))
        case .sdkInterrupted: return .sdkInterrupted
        case .sdkRecovered: return .sdkRecovered
        case .sdkCallStateChanged: return .sdkCallStateChanged(state: CallState.listed[rng.below(CallState.listed.count)])  // a closed field
        case .sdkQualityChanged:
            return .sdkQualityChanged(overall: vocab(QualityLevel.self), previous: vocab(QualityLevel.self), mos: maybe() ? double() : nil)
        case .sdkActiveSpeakers: return .sdkActiveSpeakers(speakers: (0..<count(4)).map { _ in speaker() })
        case .sdkLayerSwitched: return .sdkLayerSwitched(layer())
        case .sdkError: return .sdkError(api: s(), error: s())
        case .sdkLog: return .sdkLog(level: s(), message: s())
        case .connEngine: return .connEngine(vendor: vocab(EngineVendor.self))
        case .connState: return .connState(state: vocab(ConnState.self))
        case .qualityReport: return .qualityReport(pub: sample(), sub: sample())
        case .speakers: return .speakers(speaking: (0..<count(4)).map { _ in speaker() }, stopped: (0..<count(3)).map { _ in key() })
        case .srvLayerSwitched: return .srvLayerSwitched(layer())
        case .sysSessionActivated:
            return system(.sessionActivated(ok: bool(), error: opt(), controllingPid: maybe() ? int(100_000) : nil, controllingProcess: opt()))
        case .sysRouteChanged: return system(.routeChanged(reason: maybe() ? vocab(RouteChangeReason.self) : nil))
        case .sysPropertySet: return system(.propertySet(key: s(), value: s()))
        case .sysPlaying: return system(.playing(bool(), category: opt()))
        case .sysAppState: return system(.appState(state: s()))
        }
    }

    /// A `sys.*` body around `event`, its common fields random.
    mutating func system(_ event: SystemLogRecord.Event) -> RecordBody {
        .system(SystemLogRecord(event, process: s(), pid: maybe() ? int(100_000) : nil, session: opt(), wall: s(), isSelf: bool(),
                                timeSource: vocab(SystemLogTimeSource.self), uncertaintyMs: maybe() ? Int64(int(5000)) : nil))
    }

    /// A random `expect.*` body (each kind of expectation in turn, by `index`).
    package mutating func expectation(_ index: Int) -> RecordBody {
        let rule: RuleID? = maybe() ? vocab(RuleID.self) : nil
        let kind: Expectation.Kind
        switch index % 16 {
        case 0: kind = .route(maybe() ? vocab(Route.self) : nil)
        case 1: kind = .target(vocab(RouteTarget.self))
        case 2: kind = .override(maybe() ? vocab(RouteTarget.self) : nil)
        case 3: kind = .engaged(bool())
        case 4: kind = .audioModule(bool())
        case 5: kind = .interrupted(bool())
        case 6: kind = .verdict(ref: int(1000), verdict: vocab(VerdictKind.self), cause: maybe() ? vocab(VerdictCause.self) : nil)
        case 7: kind = .quality(bool() ? nil : .init(overall: vocab(QualityLevel.self), mos: maybe() ? double() : nil))
        case 8: kind = .qualityChanges((0..<count(3)).map { _ in .init(previous: vocab(QualityLevel.self), overall: vocab(QualityLevel.self)) })
        case 9: kind = .speakers((0..<count(3)).map { _ in key() })
        case 10: kind = .finding(code: vocab(FindingCode.self), count: maybe() ? int(5) : nil)
        case 11: kind = .noFinding(code: vocab(FindingCode.self))
        case 12: kind = .divergences(count: int(10))
        case 14: kind = .damage(lost: (0..<count(3)).map { _ in let a = int(100); return a...(a + int(5)) })
        case 13: kind = .outcome(ref: int(1000), outcome: vocab(OutcomeKind.self), cause: maybe() ? vocab(VerdictCause.self) : nil, by: ref())
        default:
            let by: FindingCode?? = maybe() ? .some(bool() ? nil : vocab(FindingCode.self)) : .none
            // An explanation assertion has at least one of its two parts (neither is no assertion at all).
            let explained: Bool? = maybe() || by == nil ? bool() : nil
            kind = .predictedBy(ref: int(10), rule: vocab(RuleID.self), seq: ref(), appliedBy: ref(),
                                explanation: maybe() ? .init(explained: explained, by: by, status: maybe() ? vocab(DivergenceStatus.self) : nil) : nil)
        }
        if case .predictedBy = kind { return .expect(Expectation(kind, atEnd: bool())) }
        return .expect(Expectation(kind, atEnd: bool(), rule: rule))
    }
}

extension RecordGenerator {
    /// Every record type (and every kind of expectation, and a custom event whose type does not follow
    /// the naming rule), each string field holding its own marker `MARK<n>X@` (the `@` makes it follow no
    /// pattern the personal-field map keeps in clear: no name, no call spelling, no listed word).
    package static func markedRecords() -> [Record] {
        var counter = 0
        var g = RecordGenerator(seed: 99, full: true, unlistedText: true) { _ in
            counter += 1
            return "MARK\(counter)X@"
        }
        var records = RecordKind.allCases.enumerated().map { i, kind in Record(seq: i, t: Int64(i), g.body(kind)) }
        for i in 0..<16 { records.append(Record(seq: records.count, t: Int64(records.count), g.expectation(i))) }
        let seq = records.count
        let type = "x.MARK\(counter + 1)X@", note = "MARK\(counter + 2)X@"
        records.append(Record(seq: seq, t: Int64(seq),
                              .unknown(type: type, json: "{\"seq\":\(seq),\"t\":\(seq),\"type\":\"\(type)\",\"note\":\"\(note)\"}")))
        return records
    }

    /// The markers (`MARK<n>X`) in a text.
    package static func markers(in text: String) -> Set<String> {
        var out = Set<String>()
        var rest = text[...]
        while let r = rest.range(of: "MARK") {
            let tail = rest[r.upperBound...]
            let digits = tail.prefix { $0.isNumber }
            if !digits.isEmpty, tail.dropFirst(digits.count).first == "X" { out.insert("MARK" + digits + "X") }
            rest = tail
        }
        return out
    }

    /// The markers of `records` in fields the personal-field map keeps in clear (the header's product
    /// and time, for one): the only ones any output may show.
    package static func clearMarkers(_ records: [Record]) -> Set<String> {
        var clear = Set<String>()
        for r in records {
            r.body.forEachString { value, field in
                if case .clear = field.privacy { clear.formUnion(markers(in: value)) }
            }
        }
        return clear
    }
}
