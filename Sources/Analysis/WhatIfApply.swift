import TraceCodec
import TraceModel

/// A trace after a what-if's edits: its records numbered afresh (seq 0, 1, … in replay order, so the
/// edited trace never reads as having lost records), the original seq each one is named by, and the
/// time from which recorded history no longer says what would have happened.
public struct EditedTrace: Sendable {
    /// The edited records, in replay order, numbered afresh.
    public var records: [Record]
    /// For each edited record (by its new seq), the seq it is named by: its seq in the original trace,
    /// or for an inserted record a fresh one after the original's last.
    public var names: [Int]
    /// The names given to inserted records.
    public var inserted: Set<Int>
    /// The time of the first record an edit changed, moved, removed or added; nil when the edits change
    /// nothing. Before it the edited trace is the original.
    public var firstEditT: Int64?
    /// For each edit, whether it changed any record (an edit of activations after the last one changes none).
    public var changed: [Bool]

    /// Applies `edits` in order to `records` (the original trace, one session joined); the input is not
    /// modified. A seq that names no record, an inserted record that does not decode, or a move after
    /// itself is an error naming the edit and the field.
    public static func apply(_ edits: [WhatIfEdit], to records: [Record], source: String = "the edits") throws(WhatIfEditError) -> EditedTrace {
        // Each entry: the record, its name, and a key that orders it (time, then place).
        struct Entry { var record: Record; var name: Int; var order: Double }
        var entries = records.enumerated().map { Entry(record: $0.element, name: $0.element.seq, order: Double($0.offset)) }
        var at: [Int: Int] = [:]
        for (i, e) in entries.enumerated() { at[e.name] = i }
        var nextName = (records.map(\.seq).max() ?? -1) + 1
        var inserted = Set<Int>()
        var changed: [Bool] = []
        var firstT: Int64?
        var removed = Set<Int>()
        // Whether an edit moved or added a record: only then is the order sorted again.
        var reordered = false
        func touched(_ t: Int64) { firstT = min(firstT ?? t, t) }
        // A record placed just after another goes between it and the next: later edits further along.
        func step(_ k: Int) -> Double { Double(k + 1) / Double(edits.count + 2) }
        for (k, edit) in edits.enumerated() {
            func fail(_ field: String, _ why: String) -> WhatIfEditError {
                WhatIfEditError(source: source, index: k + 1, edit: edit.name, field: field, reason: why)
            }
            func index(_ seq: Int, _ field: String) throws(WhatIfEditError) -> Int {
                guard let i = at[seq] else { throw fail(field, "no record with seq \(seq) in the trace") }
                guard !removed.contains(seq) else { throw fail(field, "seq \(seq) was dropped by an edit before this one") }
                if case .header = entries[i].record.body { throw fail(field, "seq \(seq) is a header, which no edit moves or drops") }
                return i
            }
            var did = false
            switch edit {
            case let .session(field, value, from):
                for i in entries.indices where !removed.contains(entries[i].name) && entries[i].record.t >= (from ?? 0) {
                    guard case .sessionActivated(var a) = entries[i].record.body else { continue }
                    let before = a
                    switch field {
                    case .setOption: if !a.options.contains(value) { a.options.append(value) }
                    case .removeOption: a.options.removeAll { $0 == value }
                    case .category: a.category = value
                    case .mode: a.mode = value
                    }
                    guard a != before else { continue }
                    entries[i].record.body = .sessionActivated(a)
                    touched(entries[i].record.t)
                    did = true
                }
            case let .move(seq, after):
                let i = try index(seq, "seq")
                let j = try index(after, "after")
                guard i != j else { throw fail("after", "a record cannot move after itself") }
                touched(min(entries[i].record.t, entries[j].record.t))
                entries[i].record.t = entries[j].record.t
                entries[i].order = entries[j].order + step(k)
                reordered = true
                did = true
            case let .delay(seq, ms):
                let i = try index(seq, "seq")
                let t = entries[i].record.t + ms
                guard t >= 0, t <= Record.maxT else { throw fail("ms", "moves seq \(seq) outside the trace's times (to \(t) ms)") }
                touched(min(entries[i].record.t, t))
                entries[i].record.t = t
                // After every record already at its new time.
                entries[i].order = (entries.filter { $0.record.t <= t }.map(\.order).max() ?? 0) + step(k)
                reordered = true
                did = ms != 0
            case let .drop(seq):
                let i = try index(seq, "seq")
                removed.insert(seq)
                touched(entries[i].record.t)
                did = true
            case let .dropType(type, from):
                for e in entries where e.record.type == type && e.record.t >= (from ?? 0) && !removed.contains(e.name) {
                    removed.insert(e.name)
                    touched(e.record.t)
                    did = true
                }
            case let .insert(json, atT, after):
                let t: Int64, order: Double
                if let after {
                    let j = try index(after, "after")
                    (t, order) = (entries[j].record.t, entries[j].order + step(k))
                } else {
                    t = atT ?? 0
                    guard t <= Record.maxT else { throw fail("at", "beyond the largest time a record may carry") }
                    order = (entries.filter { $0.record.t <= t }.map(\.order).max() ?? -1) + step(k)
                }
                let record = try decode(json, t: t, fail)
                entries.append(Entry(record: record, name: nextName, order: order))
                at[nextName] = entries.count - 1
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
        var kept = removed.isEmpty ? entries : entries.filter { !removed.contains($0.name) }
        if reordered { kept.sort { ($0.order, $0.name) < ($1.order, $1.name) } }
        var out = EditedTrace(records: [], names: [], inserted: inserted, firstEditT: firstT, changed: changed)
        out.records.reserveCapacity(kept.count)
        for (n, e) in kept.enumerated() {
            var r = e.record
            r.seq = n
            out.records.append(r)
            out.names.append(e.name)
        }
        return out
    }

    /// An inserted record's JSON (without `seq` and `t`) decoded as the trace format's decoder reads a line.
    private static func decode(_ json: String, t: Int64, _ fail: (String, String) -> WhatIfEditError) throws(WhatIfEditError) -> Record {
        guard case .object(let fields)? = try? JSONValue.parse(json) else { throw fail("record", "not a JSON object") }
        for key in ["seq", "t"] where fields[key] != nil {
            throw fail("record.\(key)", "an inserted record takes its \(key == "t" ? "time from 'at' or 'after'" : "seq afresh"); leave '\(key)' out")
        }
        guard let type = fields["type"]?.string else { throw fail("record.type", "missing") }
        guard let kind = RecordKind(rawValue: type) else { throw fail("record.type", "'\(type)' is not a record type of the trace format") }
        switch kind.family {
        case .trace where kind == .header: throw fail("record.type", "a header cannot be inserted")
        case .trace, .api, .os, .obs, .sdk, .conn, .srv, .sys: break
        }
        let line = "{\"seq\":0,\"t\":\(t)," + json.dropFirst()
        do { return try RecordDecoder().decode(line) } catch {
            throw fail(error.field.map { "record.\($0)" } ?? "record", error.reason)
        }
    }
}
