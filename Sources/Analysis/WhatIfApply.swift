import Replay
import TraceCodec
import TraceModel

/// A trace after a what-if's edits: its records numbered afresh (seq 0, 1, … in replay order, so the
/// edited trace never reads as having lost records), the original seq each one is named by, and the
/// time from which recorded history no longer says what would have happened.
package struct EditedTrace: Sendable {
    /// The edited records, in replay order, numbered afresh (made one by one: `record(_:)`).
    package var records: [Record] { (0..<count).map(record) }
    /// How many records the edited trace has.
    package var count: Int { kept.count }
    /// For each edited record (by its new seq), the seq it is named by: its seq in the original trace,
    /// or for an inserted record a fresh one after the original's last (`name(_:)` one at a time).
    package var names: [Int] { (0..<count).map(name) }
    /// The names given to inserted records.
    package var inserted: Set<Int>
    /// The time of the first record an edit changed, moved, removed or added; nil when the edits change
    /// nothing. Before it the edited trace is the original.
    package var firstEditT: Int64?
    /// For each edit, whether it changed any record (an edit of activations after the last one changes none).
    package var changed: [Bool]
    /// For each edited record, its index in the original records when its body is the original's (its
    /// identity for the comparison is the original's), else -1 (inserted, or an activation edited); in
    /// 32 bits, as the comparison's indexes are (a record's index is below 2^31).
    var origins: [Int32] = []
    /// The original records, the inserted ones (entries past the original's end), every entry's time,
    /// the activations the edits changed (by entry), and the entries kept, in replay order.
    /// The entries are kept in 32 bits, as `origins` is; a record's name is found from its entry, not kept
    /// per record (the inserted records' names beside them).
    private var source = WhatIfRecords(), added: [Record] = [], addedNames: [Int] = [], times: [Int64] = [], bodies: [Int: RecordBody] = [:]
    private var kept: [Int32] = []

    /// The seq the edited record with the new seq `m` is named by (`names`).
    func name(_ m: Int) -> Int {
        let i = Int(kept[m]), n = source.count
        return i < n ? source.seqs[i] : addedNames[i - n]
    }

    /// The edited record with the new seq `m`: the original's (or the inserted one) with its time, body and seq.
    package func record(_ m: Int) -> Record {
        let i = Int(kept[m]), n = source.count
        var r = i < n ? source.record(i) : added[i - n]
        r.t = times[i]
        if i < n, let body = bodies[i] { r.body = body }
        r.seq = m
        return r
    }

    /// The time of the edited record with the new seq `m`.
    func t(_ m: Int) -> Int64 { times[Int(kept[m])] }

    /// The kind of the edited record with the new seq `m` (an edit changes no record's kind).
    func kind(_ m: Int) -> RecordKind? {
        let i = Int(kept[m]), n = source.count
        return i < n ? source.kinds[i] : added[i - n].body.kind
    }

    /// Whether the edited record with the new seq `m` is history (`WhatIf.isHistory`); false for a seq it has not.
    func isHistory(_ m: Int) -> Bool { m >= 0 && m < count && kind(m).map(WhatIf.isHistory) == true }

    /// Replays the edited record with the new seq `m`: a record the edits left as it was (or only moved)
    /// from the original's kept form, without making it whole.
    /// `cursor` holds the original's batch read from last.
    func feed(_ m: Int, into replayer: Replayer, cursor: inout WhatIfRecords.Cursor) {
        // Its origin says whether it is the original's as it was (no table of edited bodies is asked).
        let i = Int(origins[m])
        if i >= 0 {
            source.feed(i, into: replayer, seq: m, t: times[i], cursor: &cursor)
        } else {
            replayer.feed(record(m))
        }
    }

    /// Applies `edits` in order to `records` (the original trace, one session joined); the input is not
    /// modified. A seq that names no record, an inserted record that does not decode, or a move after
    /// itself is an error naming the edit and the field.
    package static func apply(_ edits: [WhatIfEdit], to records: [Record], source: String = "the edits") throws(WhatIfEditError) -> EditedTrace {
        try apply(edits, to: WhatIfRecords(records), source: source)
    }

    /// `apply(_:to:source:)` to records kept as they were read.
    package static func apply(_ edits: [WhatIfEdit], to records: WhatIfRecords, source: String = "the edits") throws(WhatIfEditError) -> EditedTrace {
        // The records stay where they are: an edit writes what it changes beside them (a time, a body, a
        // place in the order), and each record is copied once, into the edited trace. Entry i is the
        // record at i, or an inserted record (`added`) past the original's end.
        let n = records.count
        var added: [Record] = []
        var addedNames: [Int] = []
        var times = records.times
        var bodies: [Int: RecordBody] = [:]
        // A place in the replay order (time, then place) given by a move or an insert; else the original's.
        var placed: [Int: Double] = [:]
        func order(_ i: Int) -> Double { placed[i] ?? Double(i) }
        func name(_ i: Int) -> Int { i < n ? records.seqs[i] : addedNames[i - n] }
        // Each name's entry, made when an edit first names a record by seq (edits by type or of the
        // session name none).
        var at = SeqIndex(), atMade = false
        func makeAt() {
            guard !atMade else { return }
            atMade = true
            at.reserve(through: records.seqs.last ?? 0, count: n)
            for (i, seq) in records.seqs.enumerated() { at[seq] = i }
        }
        let nextSeq = records.seqs.max().map { $0 + 1 } ?? 0
        var nextName = max(0, nextSeq)
        var inserted = Set<Int>()
        var changed: [Bool] = []
        var firstT: Int64?
        // Names dropped (a name covers every record that carries it).
        var removed = SeqIndex()
        // The activations among the original records, found once.
        var activations: [Int]?
        // Whether an edit moved or added a record: only then is the order sorted again.
        var reordered = false
        func touched(_ t: Int64) { firstT = min(firstT ?? t, t) }
        // A record placed just after another goes between it and the next: later edits further along.
        func step(_ k: Int) -> Double { Double(k + 1) / Double(edits.count + 2) }
        // The place of the last record (in the order) at or before `t`, if any.
        func after(_ t: Int64) -> Double? {
            var best: Double?
            for i in times.indices where times[i] <= t { best = max(best ?? order(i), order(i)) }
            return best
        }
        for (k, edit) in edits.enumerated() {
            func fail(_ field: String, _ why: String) -> WhatIfEditError {
                WhatIfEditError(source: source, index: k + 1, edit: edit.name, field: field, reason: why)
            }
            func index(_ seq: Int, _ field: String) throws(WhatIfEditError) -> Int {
                makeAt()
                guard let i = at[seq] else { throw fail(field, WhatIfEditWords.noSuchSeq(seq)) }
                guard !removed.contains(seq) else { throw fail(field, WhatIfEditWords.alreadyDropped(seq)) }
                if i < n, records.kinds[i] == .header { throw fail(field, WhatIfEditWords.isHeader(seq)) }
                return i
            }
            var did = false
            switch edit {
            case let .session(field, value, from):
                if activations == nil {
                    activations = records.kinds.indices.filter { records.kinds[$0] == .sessionActivated }
                }
                let addedActivations = added.indices.filter { j in
                    if case .sessionActivated = added[j].body { return true }
                    return false
                }.map { n + $0 }
                for i in activations! + addedActivations where !removed.contains(name(i)) && times[i] >= (from ?? 0) {
                    guard case .sessionActivated(let before)? = bodies[i] ?? (i < n ? records.wholeBody(i) : added[i - n].body) else { continue }
                    let a = edited(before, field, value)
                    guard a != before else { continue }
                    if i < n { bodies[i] = .sessionActivated(a) } else { added[i - n].body = .sessionActivated(a) }
                    touched(times[i])
                    did = true
                }
            case let .move(seq, after):
                let i = try index(seq, "seq")
                let j = try index(after, "after")
                guard i != j else { throw fail("after", WhatIfEditWords.moveAfterItself) }
                touched(min(times[i], times[j]))
                times[i] = times[j]
                placed[i] = order(j) + step(k)
                reordered = true
                did = true
            case let .delay(seq, ms):
                let i = try index(seq, "seq")
                let t = times[i] + ms
                guard t >= 0, t <= Record.maxT else { throw fail("ms", WhatIfEditWords.outsideTimes(seq: seq, to: t)) }
                touched(min(times[i], t))
                times[i] = t
                // After every record already at its new time.
                placed[i] = (after(t) ?? 0) + step(k)
                reordered = true
                did = ms != 0
            case let .drop(seq):
                let i = try index(seq, "seq")
                removed[seq] = 1
                touched(times[i])
                did = true
            case let .dropType(type, from):
                // Compared by kind where the type is one (the same records as by type string, without the strings).
                let kind = RecordKind(rawValue: type)
                for i in times.indices where times[i] >= (from ?? 0) {
                    // A record of a type this version does not know (or an expectation) is kept whole.
                    let recordKind = i < n ? records.kinds[i] : added[i - n].body.kind
                    guard isOfType(recordKind, kind, type, body: { i < n ? records.wholeBody(i) : added[i - n].body }) else { continue }
                    guard !removed.contains(name(i)) else { continue }
                    removed[name(i)] = 1
                    touched(times[i])
                    did = true
                }
            case let .insert(json, atT, after: afterSeq):
                let t: Int64, place: Double
                if let afterSeq {
                    let j = try index(afterSeq, "after")
                    (t, place) = (times[j], order(j) + step(k))
                } else {
                    t = atT ?? 0
                    guard t <= Record.maxT else { throw fail("at", WhatIfEditWords.beyondLargestTime) }
                    place = (after(t) ?? -1) + step(k)
                }
                let record = try decode(json, t: t, fail)
                makeAt()
                added.append(record)
                addedNames.append(nextName)
                times.append(t)
                placed[times.count - 1] = place
                at[nextName] = times.count - 1
                inserted.insert(nextName)
                nextName += 1
                reordered = true
                touched(t)
                did = true
            }
            changed.append(did)
        }
        // Replay order: the original's, with each moved or added record at its place (records whose times go
        // back in the original keep their order).
        var kept: [Int32] = []
        kept.reserveCapacity(times.count)
        for i in times.indices where removed.isEmpty || !removed.contains(name(i)) { kept.append(Int32(i)) }
        if reordered { kept.sort { (order(Int($0)), name(Int($0))) < (order(Int($1)), name(Int($1))) } }
        var out = EditedTrace(inserted: inserted, firstEditT: firstT, changed: changed)
        out.origins.reserveCapacity(kept.count)
        // The entries whose bodies an edit changed, marked in an array (not asked of the table per record).
        var bodyEdited: [Bool] = []
        if !bodies.isEmpty {
            bodyEdited = Array(repeating: false, count: n)
            for i in bodies.keys where i < n { bodyEdited[i] = true }
        }
        for k in kept {
            let i = Int(k)
            out.origins.append(i < n && (bodyEdited.isEmpty || !bodyEdited[i]) ? k : -1)
        }
        (out.source, out.added, out.addedNames, out.times, out.bodies, out.kept) = (records, added, addedNames, times, bodies, kept)
        return out
    }

    /// A session's activation with one field edited.
    static func edited(_ activation: SessionActivation, _ field: WhatIfEdit.SessionField, _ value: String) -> SessionActivation {
        var a = activation
        switch field {
        case .setOption: if !a.options.contains(value) { a.options.append(value) }
        case .removeOption: a.options.removeAll { $0 == value }
        case .category: a.category = value
        case .mode: a.mode = value
        }
        return a
    }

    /// Whether a record of kind `recordKind` is of the type a drop-type edit names (`kind`, that type's kind
    /// if it is one): compared by kind where the type is one, else by the whole body's type.
    static func isOfType(_ recordKind: RecordKind?, _ kind: RecordKind?, _ type: String, body: () -> RecordBody?) -> Bool {
        kind.map { recordKind == $0 } ?? (recordKind == nil && body()?.type == type)
    }

    /// An inserted record's JSON (without `seq` and `t`) decoded as the trace format's decoder reads a line.
    private static func decode(_ json: String, t: Int64, _ fail: (String, String) -> WhatIfEditError) throws(WhatIfEditError) -> Record {
        guard case .object(let fields)? = try? JSONValue.parse(json) else { throw fail("record", WhatIfEditWords.recordNotAnObject) }
        for key in ["seq", "t"] where fields[key] != nil {
            throw fail("record.\(key)", WhatIfEditWords.insertedCarries(key))
        }
        guard let type = fields["type"]?.string else { throw fail("record.type", WhatIfEditWords.missing) }
        guard let kind = RecordKind(rawValue: type) else { throw fail("record.type", WhatIfEditWords.notARecordType(type)) }
        switch kind.family {
        case .trace where kind == .header: throw fail("record.type", WhatIfEditWords.headerCannotBeInserted)
        case .trace, .api, .os, .obs, .sdk, .conn, .srv, .sys: break
        }
        let line = "{\"seq\":0,\"t\":\(t)," + json.dropFirst()
        do { return try RecordDecoder().decode(line) } catch {
            throw fail(error.field.map { "record.\($0)" } ?? "record", error.reason)
        }
    }
}
