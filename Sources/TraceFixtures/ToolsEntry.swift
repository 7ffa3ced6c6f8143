import TraceModel

// The Tools SPI of TraceFixtures (docs/architecture.md, "The Tools SPI"): the generated sessions benchmarks/
// writes and measures, for a package of its own that cannot see this package's `package` declarations.
// Nothing else uses it. Each call forwards to the generator the tests use, so both see the same records.

/// The synthetic session for a tool: a `Synth`, each call forwarded to it.
@_spi(Tools) public struct ToolsSynth {
    var synth: Synth

    /// A generator; the same seed gives the same records.
    @_spi(Tools) public init(seed: UInt64) { synth = Synth(seed: seed) }

    /// The time of the last record made.
    @_spi(Tools) public var t: Int64 {
        get { synth.t }
        set { synth.t = newValue }
    }

    /// The seq the next record gets.
    @_spi(Tools) public var seq: Int {
        get { synth.seq }
        set { synth.seq = newValue }
    }

    /// The first records: header, join, session, connection (`Synth.prologue`).
    @_spi(Tools) public mutating func prologue() -> [RecordBody] { synth.prologue() }

    /// The next record with its seq and time (`Synth.nextRecord`).
    @_spi(Tools) public mutating func nextRecord() -> Record { synth.nextRecord() }
}

/// The seeded generator for a tool: a `SplitMix64`, each call forwarded to it.
@_spi(Tools) public struct ToolsRandom: RandomNumberGenerator {
    var rng: SplitMix64

    /// Creates a generator from a seed.
    @_spi(Tools) public init(seed: UInt64) { rng = SplitMix64(seed: seed) }

    /// The next 64 random bits.
    @_spi(Tools) public mutating func next() -> UInt64 { rng.next() }

    /// A number in 0..<n.
    @_spi(Tools) public mutating func below(_ n: Int) -> Int { rng.below(n) }
}

/// One of the two read-path sessions `make bench` and the ratchet write (`BenchSession`).
@_spi(Tools) public struct ToolsBenchSession {
    var session: BenchSession

    /// The generator of the session named `kind` (`stress`, `healthy`; nil for another name), from the bench's seed.
    @_spi(Tools) public init?(_ kind: String) {
        guard let k = BenchSession.Kind(rawValue: kind) else { return nil }
        session = BenchSession(k)
    }

    /// The next record with its seq and time (`BenchSession.nextRecord`).
    @_spi(Tools) public mutating func nextRecord() -> Record { session.nextRecord() }
}

/// The traces built to cost a reader as much as the format allows, for a tool (`HostileTraces`).
@_spi(Tools) public enum ToolsHostileTraces {
    /// The shapes' names (`HostileTraces.Shape`).
    @_spi(Tools) public static var shapes: [String] { HostileTraces.Shape.allCases.map(\.rawValue) }

    /// The records of the shape named `shape` (`HostileTraces.records`); nil for a name that is not one.
    @_spi(Tools) public static func records(_ shape: String, count: Int, bytes: Int) -> AnySequence<Record>? {
        HostileTraces.Shape(rawValue: shape).map { HostileTraces.records($0, count: count, bytes: bytes) }
    }

    /// A speaker set of `speakers` updated whole `updates` times (`HostileTraces.speakerChurn`).
    @_spi(Tools) public static func speakerChurn(updates: Int, speakers: Int) -> AnySequence<Record> {
        HostileTraces.speakerChurn(updates: updates, speakers: speakers)
    }
}
