import TraceCodec
import TraceModel

/// One change to a trace's records before it is replayed again: a what-if's unit. Records are named by
/// their seq in the original trace; times are the original trace's.
package enum WhatIfEdit: Equatable, Sendable {
    /// Which field of every `obs.sessionActivated` from a time on an activation edit changes.
    package enum SessionField: String, Sendable, CaseIterable {
        /// Adds a category option (`allowBluetooth`).
        case setOption = "set-option"
        /// Removes a category option.
        case removeOption = "remove-option"
        /// Sets the category (`playAndRecord`).
        case category
        /// Sets the mode (`videoChat`).
        case mode
    }

    /// Changes every `obs.sessionActivated` at or after `from` (the whole trace without it).
    case session(SessionField, value: String, from: Int64?)
    /// Moves a record to just after another, at that record's time.
    case move(seq: Int, after: Int)
    /// Moves a record later (or earlier, with a negative delay) by `ms`.
    case delay(seq: Int, ms: Int64)
    /// Removes a record.
    case drop(seq: Int)
    /// Removes every record of a type at or after `from`.
    case dropType(type: String, from: Int64?)
    /// Adds a record at a time, or just after a record (at its time). `json` is the record without
    /// `seq` and `t`, as the trace format writes it.
    case insert(json: String, at: Int64?, after: Int?)

    /// The edit's name as an option and in an edits file (`set-option`, `move`, …).
    package var name: String {
        switch self {
        case .session(let field, _, _): field.rawValue
        case .move: "move"
        case .delay: "delay"
        case .drop: "drop"
        case .dropType: "drop-type"
        case .insert: "insert"
        }
    }

    /// The edit as it would be written on the command line, for reports.
    package var words: String {
        switch self {
        case let .session(field, value, from): "--\(field.rawValue) \(value)" + (from.map { " --from \($0)" } ?? "")
        case let .move(seq, after): "--move \(seq) --after \(after)"
        case let .delay(seq, ms): "--delay \(seq) \(ms)"
        case let .drop(seq): "--drop \(seq)"
        case let .dropType(type, from): "--drop-type \(type)" + (from.map { " --from \($0)" } ?? "")
        case let .insert(json, at, after): "--insert '\(json)'" + (at.map { " --at \($0)" } ?? "") + (after.map { " --after \($0)" } ?? "")
        }
    }
}

/// An edit that cannot be applied: which edit (1-based, in the order given), which field, and why.
package struct WhatIfEditError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Where the edits came from: `the command line` or the edits file's path.
    package var source: String
    /// The edit's position among the edits of its source, from 1.
    package var index: Int
    /// The edit's name (`move`), when known.
    package var edit: String?
    /// The field at fault (`after`, `record.target`), when one is.
    package var field: String?
    /// What is wrong.
    package var reason: String

    /// Creates an error.
    package init(source: String, index: Int, edit: String?, field: String?, reason: String) {
        self.source = source
        self.index = index
        self.edit = edit
        self.field = field
        self.reason = reason
    }

    /// `SOURCE: edit N (move): field 'after': reason`.
    package var description: String {
        var s = "\(source): edit \(index)"
        if let edit { s += " (\(edit))" }
        if let field { s += ": field '\(field)'" }
        return s + ": " + reason
    }
}

extension WhatIfEdit {
    /// The options that start an edit on the command line; `--after`, `--at` and `--from` qualify the
    /// edit before them, and `--delay` takes its milliseconds as the next argument.
    package static let starts: Set<String> = ["--set-option", "--remove-option", "--category", "--mode", "--move", "--delay",
                                             "--drop", "--drop-type", "--insert"]

    /// Reads edits from command-line arguments in the order given (`option` nil: a positional).
    /// Positionals that belong to no edit are returned in `rest`.
    package static func parse(arguments: [(option: String?, value: String)]) throws(WhatIfEditError) -> (edits: [WhatIfEdit], rest: [String]) {
        var edits: [WhatIfEdit] = []
        var rest: [String] = []
        var i = 0
        let source = WhatIfEditWords.commandLine
        while i < arguments.count {
            let (option, value) = arguments[i]
            i += 1
            guard let option else { rest.append(value); continue }
            guard starts.contains(option) else {
                if ["--after", "--at", "--from"].contains(option) {
                    throw WhatIfEditError(source: source, index: edits.count + 1, edit: nil, field: String(option.dropFirst(2)),
                                          reason: WhatIfEditWords.qualifierWithoutEdit(option))
                }
                continue
            }
            let name = String(option.dropFirst(2))
            let index = edits.count + 1
            func fail(_ field: String?, _ why: String) -> WhatIfEditError {
                WhatIfEditError(source: source, index: index, edit: name, field: field, reason: why)
            }
            // The qualifiers that follow this edit.
            var qualifiers: [String: String] = [:]
            while i < arguments.count, let q = arguments[i].option, ["--after", "--at", "--from"].contains(q) {
                guard qualifiers[q] == nil else { throw fail(String(q.dropFirst(2)), WhatIfEditWords.givenTwice) }
                qualifiers[q] = arguments[i].value
                i += 1
            }
            var fields: [String: JSONValue] = [:]
            switch name {
            case "move", "drop": fields["seq"] = try number(value, "seq", fail)
            case "delay":
                fields["seq"] = try number(value, "seq", fail)
                guard i < arguments.count, arguments[i].option == nil else { throw fail("ms", WhatIfEditWords.delayNeedsMs) }
                fields["ms"] = try number(arguments[i].value, "ms", fail)
                i += 1
            case "drop-type": fields["type"] = .string(value)
            case "insert":
                do { fields["record"] = try JSONValue.parse(value) } catch { throw fail("record", WhatIfEditWords.notJSON(error)) }
            default: fields["value"] = .string(value)
            }
            for (q, v) in qualifiers { fields[String(q.dropFirst(2))] = try number(v, String(q.dropFirst(2)), fail) }
            fields["edit"] = .string(name)
            edits.append(try edit(fields, source: source, index: index))
        }
        return (edits, rest)
    }

    /// Reads an edits file: a JSON array of objects, each `{"edit":"move","seq":20,"after":31}` and so on
    /// (docs/whatif.md lists the fields of each edit).
    package static func parse(file text: String, path: String) throws(WhatIfEditError) -> [WhatIfEdit] {
        let value: JSONValue
        do { value = try JSONValue.parse(text) } catch {
            throw WhatIfEditError(source: path, index: 0, edit: nil, field: nil, reason: WhatIfEditWords.notJSON(error))
        }
        guard let items = value.array else {
            throw WhatIfEditError(source: path, index: 0, edit: nil, field: nil, reason: WhatIfEditWords.expectedArrayOfEdits)
        }
        var edits: [WhatIfEdit] = []
        for (k, item) in items.enumerated() {
            guard let fields = item.object else {
                throw WhatIfEditError(source: path, index: k + 1, edit: nil, field: nil, reason: WhatIfEditWords.expectedObject)
            }
            edits.append(try edit(fields, source: path, index: k + 1))
        }
        return edits
    }

    /// One edit from its fields, every field checked.
    static func edit(_ fields: [String: JSONValue], source: String, index: Int) throws(WhatIfEditError) -> WhatIfEdit {
        guard let name = fields["edit"]?.string else {
            throw WhatIfEditError(source: source, index: index, edit: nil, field: "edit",
                                  reason: WhatIfEditWords.missingEditName(allNames))
        }
        func fail(_ field: String?, _ why: String) -> WhatIfEditError {
            WhatIfEditError(source: source, index: index, edit: name, field: field, reason: why)
        }
        func int(_ key: String, required: Bool) throws(WhatIfEditError) -> Int64? {
            guard let v = fields[key], !v.isNull else {
                if required { throw fail(key, WhatIfEditWords.missing) }
                return nil
            }
            guard let d = v.double, d == d.rounded(), abs(d) <= Double(Record.maxT) else { throw fail(key, WhatIfEditWords.expectedInteger) }
            return Int64(d)
        }
        func seq(_ key: String) throws(WhatIfEditError) -> Int {
            let v = try int(key, required: true)!
            guard v >= 0 else { throw fail(key, WhatIfEditWords.negativeSeq) }
            return Int(v)
        }
        func time(_ key: String) throws(WhatIfEditError) -> Int64? {
            let v = try int(key, required: false)
            if let v, v < 0 { throw fail(key, WhatIfEditWords.negativeTime) }
            return v
        }
        func string(_ key: String) throws(WhatIfEditError) -> String {
            guard let s = fields[key]?.string, !s.isEmpty else { throw fail(key, WhatIfEditWords.expectedNonEmptyString) }
            return s
        }
        let allowed: Set<String>
        let result: WhatIfEdit
        switch name {
        case "set-option", "remove-option", "category", "mode":
            allowed = ["value", "from"]
            let field = SessionField(rawValue: name)!
            result = .session(field, value: try string("value"), from: try time("from"))
        case "move":
            allowed = ["seq", "after"]
            result = .move(seq: try seq("seq"), after: try seq("after"))
        case "delay":
            allowed = ["seq", "ms"]
            result = .delay(seq: try seq("seq"), ms: try int("ms", required: true)!)
        case "drop":
            allowed = ["seq"]
            result = .drop(seq: try seq("seq"))
        case "drop-type":
            allowed = ["type", "from"]
            let type = try string("type")
            guard RecordKind(rawValue: type) != nil else { throw fail("type", WhatIfEditWords.notARecordType(type)) }
            result = .dropType(type: type, from: try time("from"))
        case "insert":
            allowed = ["record", "at", "after"]
            guard let record = fields["record"], record.object != nil else { throw fail("record", WhatIfEditWords.missingRecord) }
            let at = try time("at")
            let after = fields["after"] == nil ? nil : try seq("after")
            guard (at == nil) != (after == nil) else { throw fail(at == nil ? "at" : "after", WhatIfEditWords.atOrAfter) }
            result = .insert(json: Self.text(record), at: at, after: after)
        default:
            throw fail("edit", WhatIfEditWords.notAnEdit(name, names: allNames))
        }
        if let extra = fields.keys.filter({ $0 != "edit" && !allowed.contains($0) }).sorted().first {
            throw fail(extra, WhatIfEditWords.notAField(takes: allowed.sorted()))
        }
        return result
    }

    /// Every edit's name, for messages.
    static let allNames = SessionField.allCases.map(\.rawValue) + ["move", "delay", "drop", "drop-type", "insert"]

    private static func number(_ text: String, _ field: String, _ fail: (String?, String) -> WhatIfEditError) throws(WhatIfEditError) -> JSONValue {
        guard let v = Int64(text) else { throw fail(field, WhatIfEditWords.notAnInteger(text)) }
        return .number(Double(v))
    }

    /// A JSON value written back as text (an inserted record's fields, keys in order).
    static func text(_ v: JSONValue) -> String {
        var w = JSONWriter(reserving: 128)
        write(v, &w)
        return w.string
    }

    private static func write(_ v: JSONValue, _ w: inout JSONWriter) {
        switch v {
        case .null: w.null()
        case .bool(let b): w.bool(b)
        case .number(let d):
            if d == d.rounded(), abs(d) <= Double(Record.maxT) { w.int(Int64(d)) } else { w.double(d) }
        case .string(let s): w.string(s)
        case .array(let a):
            w.beginArray()
            for x in a { write(x, &w) }
            w.endArray()
        case .object(let o):
            w.beginObject()
            for k in o.keys.sorted() {
                w.key(k)
                write(o[k]!, &w)
            }
            w.endObject()
        }
    }
}
