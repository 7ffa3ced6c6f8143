import Contract
import QualityEngine
import RouteEngine
import TraceCodec
import TraceModel

/// A record's type and time, kept so reports can name the records findings point at. It keeps the record's
/// body, and says what reports read of it only when asked: most indexed records are never named by a report,
/// so their description is not made while the trace is replayed.
@usableFromInline package struct IndexedRecord: Equatable, Sendable {
    /// Its time.
    package let t: Int64
    /// What the record says.
    package let body: RecordBody

    /// A record of `body` at `t`.
    package init(t: Int64, body: RecordBody) {
        self.t = t
        self.body = body
    }

    /// The record type.
    package var type: String { body.type }
    /// A short description of its content (e.g. `bluetooth "AirPods"`).
    package var detail: String { TextCap.clip(body.summary, 2 * TextCap.characters) }

    /// What a route call asked for.
    package var target: RouteTarget? {
        if case .setRoute(let target, _) = body { return target }
        if case .setDefaultRoute(let target) = body { return target }
        return nil
    }

    /// The kind of an external device that connected.
    package var deviceKind: DeviceKind? {
        // R14: a port of AirPlay or CarAudio sets the kind whatever `kind` says.
        guard case let .deviceConnected(_, kind, _, port) = body else { return nil }
        return DeviceKind.of(kind: kind, port: port)
    }

    /// The user-visible name of an external device that connected, when recorded.
    package var deviceName: String? {
        guard case let .deviceConnected(_, _, name, _) = body else { return nil }
        return name
    }

    /// The id of the external device that connected or disconnected.
    package var deviceId: String? {
        if case .deviceConnected(let id, _, _, _) = body { return id }
        if case .deviceDisconnected(let id) = body { return id }
        return nil
    }

    /// An interruption's cause as recorded (nil: none recorded).
    package var interruptionCause: InterruptionCause? {
        guard case .interruptionBegan(let cause, _) = body else { return nil }
        return cause
    }

    /// What the system log said, for a `sys.*` record (E1: evidence the explanation cites).
    package var system: SystemLogRecord? {
        guard case .system(let s) = body else { return nil }
        return s
    }
}

/// The indexed records by seq (`ReplayResult.recordIndex`): a report looks many seqs up (a later effect scans
/// the seqs after a call), so a seq is found by its offset from the first seq indexed, in a table of
/// positions, with no hash. A seq far from those indexed before (a trace whose seqs jump) turns on a
/// position by seq instead, so that the table stays within a few times the records indexed.
@usableFromInline package struct RecordIndex: Sendable {
    /// The seqs, in the order their records were indexed.
    @usableFromInline var seqs: [Int] = []
    /// The records, at their seq's place in `seqs`, in chunks of 1024 each reserved whole: a record is
    /// large, and an array of them would copy them all whenever it grew.
    @usableFromInline var entries: [[IndexedRecord]] = []
    /// The first seq indexed: `slots[seq - base]` is the place of seq's record in `entries` plus one (0: none).
    @usableFromInline var base = 0
    @usableFromInline var slots: [Int32] = []
    /// Where each seq is in `seqs`, once one fell outside the table (nil: `slots` holds every seq).
    @usableFromInline var positions: [Int: Int]?
    /// How far past the records indexed the table may reach.
    static let slack = 1 << 16

    /// An empty index.
    package init() {}

    /// The number of records indexed.
    @inlinable
    package var count: Int { seqs.count }
    /// Whether no record is indexed.
    @inlinable
    package var isEmpty: Bool { seqs.isEmpty }

    /// The record with this seq, if it was indexed.
    @inlinable
    package subscript(seq: Int) -> IndexedRecord? {
        guard let i = position(of: seq) else { return nil }
        return entries[i >> 10][i & 1023]
    }

    /// Where the record with this seq is.
    @inlinable
    func position(of seq: Int) -> Int? {
        if let positions { return positions[seq] }
        let (k, overflow) = seq.subtractingReportingOverflow(base)
        guard !overflow, k >= 0, k < slots.count else { return nil }
        let slot = Int(slots[k])
        return slot == 0 ? nil : slot - 1
    }

    /// Keeps `entry` as the record with this seq, in place of one kept before with it.
    package mutating func set(_ seq: Int, _ entry: consuming IndexedRecord) {
        if let i = position(of: seq) {
            entries[i >> 10][i & 1023] = entry
            return
        }
        if positions == nil {
            if seqs.isEmpty { base = seq }
            let (k, overflow) = seq.subtractingReportingOverflow(base)
            if !overflow, k >= 0, k < 16 * seqs.count + Self.slack {
                if k >= slots.count {
                    // Grown by doubling, as an array grows: a seq past the end costs no growth of its own.
                    slots.append(contentsOf: repeatElement(0, count: Swift.max(k + 1, 2 * slots.count, 1024) - slots.count))
                }
                slots[k] = Int32(seqs.count + 1)
                append(seq, entry)
                return
            }
            var byPosition = [Int: Int](minimumCapacity: seqs.count + 1)
            for (i, s) in seqs.enumerated() { byPosition[s] = i }
            positions = byPosition
            slots = []
        }
        positions?[seq] = seqs.count
        append(seq, entry)
    }

    /// Adds the record with this seq after those indexed.
    private mutating func append(_ seq: Int, _ entry: consuming IndexedRecord) {
        if seqs.count & 1023 == 0 {
            entries.append([])
            entries[entries.count - 1].reserveCapacity(1024)
        }
        entries[entries.count - 1].append(entry)
        seqs.append(seq)
    }
}

extension RecordIndex: Sequence {
    /// Each seq with its record, in the order they were indexed.
    @usableFromInline package struct Iterator: IteratorProtocol {
        @usableFromInline let index: RecordIndex
        @usableFromInline var i = 0

        @inlinable
        init(index: RecordIndex) { self.index = index }

        @inlinable
        package mutating func next() -> (key: Int, value: IndexedRecord)? {
            guard i < index.seqs.count else { return nil }
            defer { i += 1 }
            return (index.seqs[i], index.entries[i >> 10][i & 1023])
        }
    }

    @inlinable
    package func makeIterator() -> Iterator { Iterator(index: self) }
    @inlinable
    package var underestimatedCount: Int { seqs.count }
}
