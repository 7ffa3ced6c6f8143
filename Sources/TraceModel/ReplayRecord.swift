/// One record as a replay reads it: trivially copyable (no reference-counted field), 64 bytes. The
/// high-rate types carry their fields here as numbers, vocabulary indices and `Symbol`s, with their lists
/// (speakers, quality samples, ports) as a range of a side buffer that the records of a batch share and
/// that is reused for the next (`ReplayArena`); every other type, and every record a replay that is
/// observed reads, also keeps its whole `Record` there (`full`). The engines and the replay's driver read
/// this; `Record` stays the model of the tools that print or rewrite records.
///
/// In a batch the decoder fills, text fields are indices of byte ranges in the batch, which the replay
/// interns into symbols as it takes the record (`ReplayArena`).
public struct ReplayRecord: Sendable {
    /// Position in the trace.
    public var seq: Int
    /// Milliseconds since the trace started.
    public var t: Int64
    /// The record's type; nil for an expectation or a type this version does not know (`full` has it).
    public var kind: RecordKind?
    /// Small fields: vocabulary indices and flags, by type.
    @usableFromInline var b0: UInt8 = 0, b1: UInt8 = 0, b2: UInt8 = 0
    /// The index of the whole record in the arena, or -1.
    public var full: Int32 = -1
    /// Text fields, by type.
    @usableFromInline var s0: UInt32 = 0, s1: UInt32 = 0, s2: UInt32 = 0, s3: UInt32 = 0
    /// A list in a side buffer: where it starts and how long it is; `count2` a second list right after it.
    @usableFromInline var start: UInt32 = 0, count: UInt32 = 0, count2: UInt32 = 0
    /// A number, by type (NaN: absent).
    @usableFromInline var value: Double = .nan

    /// A record of `kind` at `seq` and `t`, its fields still to fill.
    @inlinable
    public init(seq: Int, t: Int64, kind: RecordKind?) {
        self.seq = seq
        self.t = t
        self.kind = kind
    }

    /// Whether the record's whole `Record` is in the arena.
    @inlinable
    public var hasFull: Bool { full >= 0 }
}

// MARK: - Fields of the high-rate types

extension ReplayRecord {
    /// `srv.qualityReport`: where its two samples are (`ReplayArena.samples`), pub then sub.
    @inlinable
    public var samplesAt: Int { Int(start) }

    /// `srv.speakers`: the speaking entries, then the stopped ones (`ReplayArena.speakers`).
    @inlinable
    public var speaking: Range<Int> { Int(start)..<Int(start + count) }
    /// `srv.speakers`: the stopped keys (level unused).
    @inlinable
    public var stopped: Range<Int> { Int(start + count)..<Int(start + count + count2) }
    /// `sdk.activeSpeakers`: its speakers.
    @inlinable
    public var speakers: Range<Int> { Int(start)..<Int(start + count) }
    /// `obs.routeSnapshot`: its ports (`ReplayArena.lists`), when it lists them.
    @inlinable
    public var ports: Range<Int>? { b1 == 0 ? nil : Int(start)..<Int(start + count) }

    /// `sdk.qualityChanged`'s levels and MOS.
    @inlinable
    public var overall: QualityLevel { QualityLevel.byIndex[Int(b0)] }
    @inlinable
    public var previousLevel: QualityLevel { QualityLevel.byIndex[Int(b1)] }
    @inlinable
    public var mos: Double? { value.isNaN ? nil : value }

    /// `obs.routeChanged` and `obs.routeSnapshot`: the route read.
    @inlinable
    public var route: Route { Route.byIndex[Int(b0)] }
    /// `obs.routeChanged`: the route before, and the reason.
    @inlinable
    public var previousRoute: Route { Route.byIndex[Int(b1)] }
    @inlinable
    public var reason: RouteChangeReason { RouteChangeReason.byIndex[Int(b2)] }

    /// `api.setRoute`: the target, and the literal API when recorded.
    @inlinable
    public var target: RouteTarget { RouteTarget.byIndex[Int(b0)] }
    @inlinable
    public var api: Symbol { Symbol(id: s0) }

    /// `os.deviceConnected` and `os.deviceDisconnected`: the device's id.
    @inlinable
    public var deviceID: Symbol { Symbol(id: s0) }
    /// `os.deviceConnected`: its name and port, when recorded.
    @inlinable
    public var deviceName: Symbol { Symbol(id: s2) }
    @inlinable
    public var devicePort: Symbol { Symbol(id: s3) }
    /// `os.deviceConnected`: the index of a kind the format lists, or nil with the unlisted kind's text.
    @inlinable
    public var deviceKind: (listed: Int?, unlisted: Symbol) { (b0 == UInt8.max ? nil : Int(b0), Symbol(id: s1)) }
}

extension ReplayRecord {
    /// Fills the fields of `srv.qualityReport`.
    @inlinable
    public mutating func setQualityReport(samplesAt i: Int) { start = UInt32(i) }

    /// Fills the lists of `srv.speakers` (speaking, then stopped, from `start`).
    @inlinable
    public mutating func setSpeakers(start: Int, speaking: Int, stopped: Int) {
        self.start = UInt32(start)
        count = UInt32(speaking)
        count2 = UInt32(stopped)
    }

    /// Fills the list of `sdk.activeSpeakers`.
    @inlinable
    public mutating func setActiveSpeakers(start: Int, count: Int) {
        self.start = UInt32(start)
        self.count = UInt32(count)
    }

    /// Fills `sdk.qualityChanged`.
    @inlinable
    public mutating func setQualityChanged(overall: QualityLevel, previous: QualityLevel, mos: Double?) {
        b0 = overall.index
        b1 = previous.index
        value = mos ?? .nan
    }

    /// Fills `obs.routeChanged`.
    @inlinable
    public mutating func setRouteChanged(route: Route, previous: Route, reason: RouteChangeReason) {
        b0 = route.index
        b1 = previous.index
        b2 = reason.index
    }

    /// Fills `obs.routeSnapshot`; `ports` is the range of its ports in the list buffer, nil when absent.
    @inlinable
    public mutating func setRouteSnapshot(route: Route, ports: Range<Int>?) {
        b0 = route.index
        b1 = ports == nil ? 0 : 1
        start = UInt32(ports?.lowerBound ?? 0)
        count = UInt32(ports?.count ?? 0)
    }

    /// Fills `api.setRoute`.
    @inlinable
    public mutating func setSetRoute(target: RouteTarget, api: UInt32) {
        b0 = target.index
        s0 = api
    }

    /// Fills `os.deviceConnected`: `kind` is the index of a listed kind, or nil with `unlisted` its text.
    @inlinable
    public mutating func setDeviceConnected(id: UInt32, kind: Int?, unlisted: UInt32, name: UInt32, port: UInt32) {
        s0 = id
        b0 = kind.map { UInt8($0) } ?? UInt8.max
        s1 = unlisted
        s2 = name
        s3 = port
    }

    /// Fills `os.deviceDisconnected`.
    @inlinable
    public mutating func setDeviceDisconnected(id: UInt32) { s0 = id }

    /// The text fields, for a pass that turns them from one form into another (byte ranges into symbols).
    @inlinable
    public mutating func mapTexts(_ transform: (UInt32) -> UInt32) {
        if s0 != 0 { s0 = transform(s0) }
        if s1 != 0 { s1 = transform(s1) }
        if s2 != 0 { s2 = transform(s2) }
        if s3 != 0 { s3 = transform(s3) }
    }

    /// The list range, for a pass that copies lists from one buffer to another.
    @inlinable
    public var listRange: Range<Int> { Int(start)..<Int(start + count + count2) }

    /// Moves the list to start at `start` (the same lengths).
    @inlinable
    public mutating func moveList(to start: Int) { self.start = UInt32(start) }
}

/// One speaker entry of a record as the replay holds it: uid and track id, and the level (unused for a
/// stopped key).
public struct SpeakerRef: Equatable, Sendable {
    /// User id.
    public var uid: Symbol
    /// Track id.
    public var track: Symbol
    /// Normalised level.
    public var level: Double

    /// Creates an entry.
    @inlinable
    public init(uid: Symbol, track: Symbol, level: Double) {
        self.uid = uid
        self.track = track
        self.level = level
    }
}

// Vocabulary values as the small indices a replay record holds: the position in the type's cases
// (`ReplayRecordTests` holds each `index` to `byIndex`).
extension Route {
    /// The cases in order, by index.
    public static let byIndex = Array(allCases)
    @inlinable public var index: UInt8 {
        switch self {
        case .speaker: 0
        case .receiver: 1
        case .bluetooth: 2
        case .headset: 3
        case .unknown: 4
        }
    }
}

extension RouteTarget {
    /// The cases in order, by index.
    public static let byIndex = Array(allCases)
    @inlinable public var index: UInt8 {
        switch self {
        case .speaker: 0
        case .earpiece: 1
        }
    }
}

extension QualityLevel {
    /// The cases in order, by index.
    public static let byIndex = Array(allCases)
    @inlinable public var index: UInt8 {
        switch self {
        case .unknown: 0
        case .excellent: 1
        case .good: 2
        case .poor: 3
        case .lost: 4
        }
    }
}

extension RouteChangeReason {
    /// The cases in order, by index.
    public static let byIndex = Array(allCases)
    @inlinable public var index: UInt8 {
        switch self {
        case .newDeviceAvailable: 0
        case .oldDeviceUnavailable: 1
        case .override: 2
        case .categoryChange: 3
        case .wakeFromSleep: 4
        case .noSuitableRouteForCategory: 5
        case .routeConfigurationChange: 6
        case .unknown: 7
        }
    }
}

extension DeviceKind {
    /// The position of a listed kind in `listed`; nil for an unlisted one.
    @inlinable public var listedIndex: Int? {
        switch self {
        case .bluetooth: 0
        case .headset: 1
        case .airplay: 2
        case .carAudio: 3
        case .unlisted: nil
        }
    }
}
