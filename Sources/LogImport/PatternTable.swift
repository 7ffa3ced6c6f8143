import TraceCodec
import TraceModel

/// A table of line shapes for an SDK's own text log (`import-log --format FILE.json`): per shape, a
/// regular expression, the record type it becomes and which capture fills which field; a shape of
/// several lines is a block from a `start` line to an `end` line. A support team imports its SDK's log
/// with a table, without code (docs/import.md, "Pattern tables").
package struct PatternTable {
    /// The table's name, for reports.
    package var name: String
    /// The app's process name, written as `process` into the `sys.*` records the table makes.
    package var process: String
    /// The UTC offset of the log's times written without one, in minutes.
    package var utcOffsetMinutes: Int?
    /// The product layer the SDK's log speaks of, for a trace made of the log alone (`srtc` when not given).
    package var layer: Layer = .srtc
    /// The shapes, tried in order on each line.
    var shapes: [Shape]

    /// One line shape.
    struct Shape {
        var name: String
        var type: RecordKind
        var match: Regex<AnyRegexOutput>?
        var start: Regex<AnyRegexOutput>?
        var end: Regex<AnyRegexOutput>?
        var maxLines: Int
        var fields: [(name: String, value: FieldValue)]
    }

    /// How a field's value is made from the captures.
    indirect enum FieldValue {
        /// Text with `$name` or `${name}` for captures (`$$` for a dollar sign).
        case text(String)
        /// A number, a boolean or null, as written in the table.
        case constant(JSONValue)
        /// A capture read as an integer, a number or a boolean.
        case int(String), number(String), bool(String)
        /// A capture looked up in a table of values (`{"map": {"spk": "speaker"}, "from": "$r"}`), else `default`.
        case map([String: JSONValue], from: String, fallback: JSONValue?)
        /// A capture split into a list of texts at `separator` (`{"split": "$options", "separator": ","}`).
        case split(String, separator: String)
    }

    /// Reads a table from its file.
    package static func load(_ path: String) throws -> PatternTable {
        var text = ""
        do {
            try JSONLinesFile.forEachLine(path, text: true) { bytes, _ in text += String(decoding: bytes, as: UTF8.self) + "\n" }
        } catch let e as JSONLinesFile.ReadError {
            throw LogImportError(e.description, e.isIO ? .io : .usage)
        }
        return try parse(text, file: path)
    }

    /// Reads a table from its JSON text; `file` names it in errors.
    package static func parse(_ text: String, file: String) throws -> PatternTable {
        func fail(_ why: String) -> LogImportError { LogImportError("\(file): \(why)", .usage) }
        let v: JSONValue
        do { v = try JSONValue.parse(text) } catch { throw fail("not a JSON object: \(error)") }
        guard v["patternTable"]?.int == 1 else { throw fail(PatternTableWords.versionMissing) }
        guard let list = v["shapes"]?.array, !list.isEmpty else { throw fail(PatternTableWords.shapesMissing) }
        var table = PatternTable(name: v["name"]?.string ?? file, process: v["process"]?.string ?? "app", utcOffsetMinutes: nil, shapes: [])
        if let l = v["layer"] {
            guard let name = l.string, let layer = Layer(rawValue: name) else { throw fail("\"layer\": must be \"srtc\" or \"smeeting\"") }
            table.layer = layer
        }
        if let o = v["utcOffset"]?.string {
            guard let c = LogClock.parse("00:00" + o), let m = c.offsetMinutes else { throw fail("\"utcOffset\": \(o) is not ±HHMM") }
            table.utcOffsetMinutes = m
        }
        for (i, s) in list.enumerated() {
            let label = "shape \(i + 1)" + (s["name"]?.string.map { " (\($0))" } ?? "")
            func regex(_ key: String) throws -> Regex<AnyRegexOutput>? {
                guard let p = s[key] else { return nil }
                guard let pattern = p.string else { throw fail(PatternTableWords.patternNotAString(label, key: key)) }
                do { return try Regex(pattern) } catch { throw fail("\(label): \"\(key)\": \(error)") }
            }
            guard let typeName = s["type"]?.string, let type = RecordKind(rawValue: typeName) else {
                throw fail(PatternTableWords.notARecordType(label))
            }
            guard type.family != .trace else { throw fail(PatternTableWords.recorderOwnType(label, type: typeName)) }
            let shape = Shape(name: s["name"]?.string ?? "shape \(i + 1)", type: type, match: try regex("match"), start: try regex("start"),
                              end: try regex("end"), maxLines: s["maxLines"]?.int ?? 50, fields: try fields(s["fields"], label, fail))
            guard shape.match != nil || shape.start != nil else { throw fail("\(label): needs \"match\", or \"start\" and \"end\"") }
            guard (shape.start == nil) == (shape.end == nil) else { throw fail(PatternTableWords.blockNeedsStartAndEnd(label)) }
            guard shape.maxLines >= 1 else { throw fail(PatternTableWords.maxLinesBelowOne(label)) }
            table.shapes.append(shape)
        }
        return table
    }

    private static func fields(_ v: JSONValue?, _ label: String, _ fail: (String) -> LogImportError) throws -> [(name: String, value: FieldValue)] {
        guard let v else { return [] }
        guard let members = v.object else { throw fail(PatternTableWords.fieldsNotAnObject(label)) }
        return try members.sorted { $0.key < $1.key }.map { name, spec in
            switch spec {
            case .string(let s): return (name, .text(s))
            case .number, .bool, .null: return (name, .constant(spec))
            case .array: throw fail("\(label): field \(name): a list is written {\"split\": \"$capture\"}")
            case .object:
                if let t = spec["int"]?.string { return (name, .int(t)) }
                if let t = spec["number"]?.string { return (name, .number(t)) }
                if let t = spec["bool"]?.string { return (name, .bool(t)) }
                if let t = spec["split"]?.string { return (name, .split(t, separator: spec["separator"]?.string ?? ",")) }
                if let m = spec["map"]?.object, let from = spec["from"]?.string { return (name, .map(m, from: from, fallback: spec["default"])) }
                throw fail("\(label): field \(name): write a text, a constant, or one of {\"int\"}, {\"number\"}, {\"bool\"}, {\"split\"}, {\"map\", \"from\"}")
            }
        }
    }
}

extension PatternTable {
    /// Reads a log with the table: each line tried against the shapes in order (a block from its start
    /// line to its end line), each match made into a record through the trace format's own decoder.
    func read(_ path: String, _ found: (LogFact) -> Void, unmatched: (String) -> Void) throws -> LogReadNotes {
        var notes = LogReadNotes()
        var block: (shape: Int, lines: [String], first: Int, captures: [String: String])?
        func unreadable(_ line: Int, _ why: String) {
            notes.unreadableLines += 1
            if notes.firstUnreadable == nil { notes.firstUnreadable = (line, why) }
        }
        func emit(_ shape: Shape, _ captures: [String: String], line: Int) {
            switch fact(shape, captures, file: path, line: line) {
            case .success(let f):
                notes.entries += 1
                found(f)
            case .failure(let e): unreadable(line, e.description)
            }
        }
        do {
            try JSONLinesFile.forEachLine(path, text: true) { bytes, number in
                var text = String(decoding: bytes, as: UTF8.self)
                if text.hasSuffix("\r") { text.removeLast() }
                if var b = block {
                    let shape = shapes[b.shape]
                    b.lines.append(text)
                    if let end = shape.end, let m = try? end.firstMatch(in: text) {
                        block = nil
                        var captures = b.captures.merging(Self.captures(m)) { _, new in new }
                        if let match = shape.match {
                            guard let m = try? match.firstMatch(in: b.lines.joined(separator: "\n")) else {
                                return unreadable(b.first, PatternTableWords.blockDoesNotMatch(shape.name))
                            }
                            captures.merge(Self.captures(m)) { _, new in new }
                        }
                        return emit(shape, captures, line: b.first)
                    }
                    if b.lines.count >= shape.maxLines {
                        block = nil
                        return unreadable(b.first, PatternTableWords.noEndLine(shape.name, within: shape.maxLines))
                    }
                    block = b
                    return
                }
                for (i, shape) in shapes.enumerated() {
                    if let start = shape.start {
                        guard let m = try? start.firstMatch(in: text) else { continue }
                        block = (i, [text], number, Self.captures(m))
                        return
                    }
                    if let match = shape.match, let m = try? match.firstMatch(in: text) {
                        return emit(shape, Self.captures(m), line: number)
                    }
                }
                unmatched(text)
            }
        } catch let e as JSONLinesFile.ReadError {
            throw LogImportError(e.description, e.isIO ? .io : .input)
        }
        if let b = block { unreadable(b.first, PatternTableWords.fileEndsInsideBlock(shapes[b.shape].name)) }
        return notes
    }

    /// The named captures of a match that took part in it.
    static func captures(_ m: Regex<AnyRegexOutput>.Match) -> [String: String] {
        var out: [String: String] = [:]
        for e in m.output { if let name = e.name, let s = e.substring { out[name] = String(s) } }
        return out
    }

    /// The record a match makes: its fields written as a JSON line and read by the trace format's decoder,
    /// so a table can make only records the format accepts.
    func fact(_ shape: Shape, _ captures: [String: String], file: String, line: Int) -> Result<LogFact, LogImportError> {
        guard let timeText = captures["time"] else { return .failure(LogImportError("\(shape.name): no \"time\" capture")) }
        guard let clock = LogClock.parse(timeText) else { return .failure(LogImportError(PatternTableWords.timeNotATime(shape.name, time: TextCap.clip(timeText)))) }
        var w = JSONWriter()
        w.beginObject()
        w.staticKey("seq"); w.int(0)
        w.staticKey("t"); w.int(0)
        w.staticKey("type"); w.string(shape.type.rawValue)
        var written = Set<String>()
        for (name, value) in shape.fields {
            guard let v = Self.value(value, captures) else { continue }
            w.key(name)
            Self.write(v, &w)
            written.insert(name)
        }
        if shape.type.family == .sys {
            // The fields every sys.* record has, when the table does not give them: the app's own line.
            if !written.contains("process") { w.staticKey("process"); w.string(process) }
            if !written.contains("wall") { w.staticKey("wall"); w.string(timeText) }
            if !written.contains("self") { w.staticKey("self"); w.bool(true) }
            if !written.contains("timeSource") { w.staticKey("timeSource"); w.string(SystemLogTimeSource.wall.rawValue) }
        }
        w.endObject()
        let record: Record
        do { record = try RecordDecoder().decode(w.string) } catch {
            return .failure(LogImportError("\(shape.name): \(shape.type.rawValue): " + (error.field.map { "field \($0): " } ?? "") + error.reason))
        }
        let entry = LogEntry(file: file, line: line, timeText: timeText, clock: clock, level: nil, process: process, pid: nil,
                             processPath: nil, subsystem: nil, message: "")
        return .success(LogFact(entry: entry, shape: shape.name, process: process, pid: nil, session: nil, what: .record(record.body)))
    }

    /// A field's value from the captures; nil when a capture it names did not take part (the field is left out).
    static func value(_ v: FieldValue, _ captures: [String: String]) -> JSONValue? {
        switch v {
        case .text(let t): return fill(t, captures).map { .string($0) }
        case .constant(let c): return c
        case .int(let t): return fill(t, captures).flatMap { Int64($0) }.map { .number(Double($0)) }
        case .number(let t): return fill(t, captures).flatMap { Double($0) }.map { .number($0) }
        case .bool(let t):
            return fill(t, captures).flatMap { LineShape.playingWord($0) ?? (["on", "enabled"].contains($0.lowercased()) ? true : nil) }.map { .bool($0) }
        case let .map(table, from, fallback):
            guard let key = fill(from, captures) else { return fallback }
            return table[key] ?? fallback
        case let .split(t, separator):
            guard let text = fill(t, captures) else { return nil }
            let parts = text.split(separator: separator).map { Substring($0).trimmed }.filter { !$0.isEmpty }
            return .array(parts.map { .string($0) })
        }
    }

    /// Text with its `$name` and `${name}` replaced; nil when a named capture did not take part.
    static func fill(_ template: String, _ captures: [String: String]) -> String? {
        var out = ""
        var i = template.startIndex
        while i < template.endIndex {
            let c = template[i]
            guard c == "$" else { out.append(c); i = template.index(after: i); continue }
            var j = template.index(after: i)
            if j < template.endIndex, template[j] == "$" { out.append("$"); i = template.index(after: j); continue }
            let braced = j < template.endIndex && template[j] == "{"
            if braced { j = template.index(after: j) }
            let name = template[j...].prefix { $0.isLetter || $0.isNumber || $0 == "_" }
            guard !name.isEmpty else { out.append("$"); i = template.index(after: i); continue }
            guard let value = captures[String(name)] else { return nil }
            out += value
            i = template.index(j, offsetBy: name.count)
            if braced, i < template.endIndex, template[i] == "}" { i = template.index(after: i) }
        }
        return out
    }

    static func write(_ v: JSONValue, _ w: inout JSONWriter) {
        switch v {
        case .null: w.null()
        case .bool(let b): w.bool(b)
        case .number(let d):
            if d == d.rounded(), abs(d) < 9e15 { w.int(Int64(d)) } else { w.double(d) }
        case .string(let s): w.string(s)
        case .array(let a):
            w.beginArray()
            for e in a { write(e, &w) }
            w.endArray()
        case .object(let o):
            w.beginObject()
            for (k, e) in o.sorted(by: { $0.key < $1.key }) { w.key(k); write(e, &w) }
            w.endObject()
        }
    }
}
