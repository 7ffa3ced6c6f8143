import TraceCodec
import TraceModel

/// How a file of the device's log was exported: the envelope around each entry.
package enum LogEnvelope: String, Sendable, CaseIterable {
    /// `log show --style ndjson`: one JSON object a line.
    case ndjson = "log show --style ndjson"
    /// `log show --style json`: one JSON array of the same objects.
    case json = "log show --style json"
    /// `log show` in its default style: timestamp, thread, type, activity, pid, ttl, `process: message`.
    case logShow = "log show (default style)"
    /// `log show --style compact`: timestamp, type, `process[pid:tid]`, message.
    case compact = "log show --style compact"
    /// A copy from Console: `LEVEL<tab>TIME<tab>PROCESS<tab>MESSAGE`, the level word in the Mac's language.
    case console = "a copy from Console"
}

/// What reading one file found besides entries.
package struct LogReadNotes: Sendable {
    /// The envelope of the file (nil: no entry was found).
    package var envelope: LogEnvelope?
    /// Entries read.
    package var entries = 0
    /// Lines of the envelope itself (`log show`'s heading and totals, the brackets of a JSON array).
    package var envelopeLines = 0
    /// Lines that are no entry of any envelope, and no continuation of one, counted.
    package var unreadableLines = 0
    /// The first of those, with why, for messages.
    package var firstUnreadable: (line: Int, why: String)?
}

/// Reads the entries of one file of the device's log, plain or zstd-compressed, whatever its envelope.
enum LogFileReader {
    /// The largest JSON object of a `--style json` export held at once; a bigger one is skipped and counted.
    static let maxObjectBytes = 1 << 20

    /// Calls `body` with each entry of the file, in file order; throws when the file cannot be read.
    static func read(_ path: String, _ body: (LogEntry) throws -> Void) throws -> LogReadNotes {
        var notes = LogReadNotes()
        var pending: LogEntry?
        var array = JSONArraySplitter()
        func unreadable(_ line: Int, _ why: String) {
            notes.unreadableLines += 1
            if notes.firstUnreadable == nil { notes.firstUnreadable = (line, why) }
        }
        func emit(_ e: LogEntry) throws {
            notes.entries += 1
            try body(e)
        }
        try JSONLinesFile.forEachLine(path, text: true) { bytes, number in
            var text = String(decoding: bytes, as: UTF8.self)
            if text.hasSuffix("\r") { text.removeLast() }
            if notes.envelope == nil {
                let first = text.drop { $0 == " " || $0 == "\t" }.first
                if first == "[" { notes.envelope = .json } else if first == "{" { notes.envelope = .ndjson }
            }
            switch notes.envelope {
            case .json?:
                for object in array.feed(Array(text.utf8) + [0x0A], line: number) {
                    guard let o = object.bytes else { unreadable(object.line, EnvelopeWords.objectTooLarge(maxBytes: maxObjectBytes)); continue }
                    switch ndjsonEntry(o, path: path, line: object.line) {
                    case .entry(let e): try emit(e)
                    case .notAMessage: notes.envelopeLines += 1
                    case .unreadable(let why): unreadable(object.line, why)
                    }
                }
                notes.envelopeLines += array.takeEnvelopeLines()
            case .ndjson?:
                switch ndjsonEntry(Array(text.utf8), path: path, line: number) {
                case .entry(let e): try emit(e)
                case .notAMessage: notes.envelopeLines += 1
                case .unreadable(let why): unreadable(number, why)
                }
            case .logShow?, .compact?, .console?, nil:
                if let (e, envelope) = textEntry(text, path: path, line: number) {
                    if let p = pending { try emit(p) }
                    pending = e
                    if notes.envelope == nil { notes.envelope = envelope }
                } else if isEnvelopeLine(text) {
                    // The totals after the last entry end it: what follows continues no message.
                    if let p = pending { try emit(p) }
                    pending = nil
                    notes.envelopeLines += 1
                } else if pending != nil, !startsWithTime(text) {
                    // A message of several lines continues until the next entry.
                    pending!.message += "\n" + text
                } else {
                    unreadable(number, EnvelopeWords.noKnownEnvelope)
                }
            }
        }
        if let p = pending { try emit(p) }
        if array.open { unreadable(array.openLine, EnvelopeWords.objectCutOffAtEnd) }
        return notes
    }

    /// An entry of `log show --style ndjson` or `json`: the fields `timestamp`, `processImagePath`,
    /// `processID`, `subsystem`, `category`, `eventMessage`, `messageType`.
    /// Events other than log messages (activities, signposts, states) and the totals `log show` ends
    /// with are `notAMessage`.
    static func ndjsonEntry(_ bytes: [UInt8], path: String, line: Int) -> ObjectEntry {
        let v: JSONValue
        do { v = try bytes.withUnsafeBufferPointer { try JSONValue.parse($0) } } catch { return .unreadable("not JSON: \(error)") }
        guard v.object != nil else { return .unreadable("not a JSON object") }
        if v["finished"] != nil || v["eventType"]?.string.map({ $0 != "logEvent" }) == true { return .notAMessage }
        guard let stamp = v["timestamp"]?.string else { return .unreadable("no timestamp") }
        guard let clock = LogClock.parse(stamp) else { return .unreadable(EnvelopeWords.timestampNotATime(TextCap.clip(stamp))) }
        guard let message = v["eventMessage"]?.string else { return .notAMessage }
        let image = v["processImagePath"]?.string
        let name = image.flatMap { $0.split(separator: "/").last.map(String.init) } ?? v["process"]?.string ?? "?"
        return .entry(LogEntry(file: path, line: line, timeText: stamp, clock: clock, level: v["messageType"]?.string, process: name,
                               pid: v["processID"]?.int, processPath: image, subsystem: v["subsystem"]?.string, message: message))
    }

    /// What one JSON object of an export is.
    enum ObjectEntry {
        case entry(LogEntry), notAMessage, unreadable(String)
    }

    /// An entry of a text envelope, with which: `log show`'s default style, its compact style, or a Console copy.
    static func textEntry(_ text: String, path: String, line: Int) -> (LogEntry, LogEnvelope)? {
        if text.contains("\t"), let e = consoleEntry(text, path: path, line: line) { return (e, .console) }
        guard startsWithTime(text) else { return nil }
        let words = text.split(separator: " ", maxSplits: 7, omittingEmptySubsequences: true)
        guard words.count >= 4, let clock = LogClock.parse(words[0] + " " + words[1]) else { return nil }
        let stamp = String(words[0] + " " + words[1])
        // Default style: thread, type, activity, pid, ttl, then `process: message`.
        if words.count == 8, words[2].hasPrefix("0x"), words[4].hasPrefix("0x"), let pid = Int(words[5]), Int(words[6]) != nil {
            let rest = words[7].drop { $0 == " " }
            guard let colon = rest.firstRange(of: ": ") ?? (rest.hasSuffix(":") ? rest.index(before: rest.endIndex)..<rest.endIndex : nil) else { return nil }
            var message = rest[colon.upperBound...]
            if message.hasPrefix("("), let close = message.firstIndex(of: ")") { message = message[message.index(after: close)...].drop { $0 == " " } }
            var subsystem: String?
            if message.hasPrefix("["), let close = message.firstIndex(of: "]") {
                subsystem = message[message.index(after: message.startIndex)..<close].split(separator: ":").first.map(String.init)
                message = message[message.index(after: close)...].drop { $0 == " " }
            }
            return (LogEntry(file: path, line: line, timeText: stamp, clock: clock, level: String(words[3]), process: String(rest[..<colon.lowerBound]),
                             pid: pid, processPath: nil, subsystem: subsystem, message: String(message)), .logShow)
        }
        // Compact style: type, `process[pid:tid]`, message.
        let tail = text.split(separator: " ", maxSplits: 4, omittingEmptySubsequences: true)
        guard tail.count >= 4, let open = tail[3].firstIndex(of: "["), tail[3].hasSuffix("]") else { return nil }
        let who = tail[3]
        let ids = who[who.index(after: open)..<who.index(before: who.endIndex)].split(separator: ":")
        var message = tail.count > 4 ? tail[4] : ""
        var subsystem: String?
        if message.hasPrefix("["), let close = message.firstIndex(of: "]") {
            subsystem = message[message.index(after: message.startIndex)..<close].split(separator: ":").first.map(String.init)
            message = message[message.index(after: close)...].drop { $0 == " " }
        }
        return (LogEntry(file: path, line: line, timeText: stamp, clock: clock, level: String(tail[2]), process: String(who[..<open]),
                         pid: ids.first.flatMap { Int($0) }, processPath: nil, subsystem: subsystem, message: String(message)), .compact)
    }

    /// A Console copy's line: `LEVEL<tab>TIME<tab>PROCESS<tab>MESSAGE`; the level is whatever word the Mac's
    /// language gives it, so the time is found by its shape.
    static func consoleEntry(_ text: String, path: String, line: Int) -> LogEntry? {
        let fields = text.split(separator: "\t", omittingEmptySubsequences: false)
        guard fields.count >= 4, let ti = fields.prefix(3).firstIndex(where: { LogClock.parse($0.trimmed) != nil }), ti + 2 < fields.count,
              let clock = LogClock.parse(fields[ti].trimmed) else { return nil }
        let level = fields[..<ti].map(\.trimmed).joined(separator: " ")
        let process = fields[ti + 1].trimmed
        guard !process.isEmpty else { return nil }
        return LogEntry(file: path, line: line, timeText: fields[ti].trimmed, clock: clock, level: level.isEmpty ? nil : level,
                        process: process, pid: nil, processPath: nil, subsystem: nil,
                        message: fields[(ti + 2)...].joined(separator: "\t"))
    }

    /// Whether a text line begins with a date or a time of day (a new entry, never a continuation).
    static func startsWithTime(_ text: String) -> Bool {
        let u = Array(text.utf8.prefix(11))
        func digit(_ i: Int) -> Bool { i < u.count && (0x30...0x39).contains(u[i]) }
        if u.count >= 10, digit(0), digit(3), u[4] == 0x2D, u[7] == 0x2D { return true }
        return u.count >= 5 && digit(0) && digit(1) && u[2] == 0x3A && digit(3)
    }

    /// `log show`'s own lines: its heading, column titles, rule and totals.
    static func isEnvelopeLine(_ text: String) -> Bool {
        let t = text.drop { $0 == " " }
        return t.hasPrefix(EnvelopeWords.filteringHeading) || t.hasPrefix(EnvelopeWords.skippingInfoAndDebug) || t.hasPrefix("Timestamp ")
            || t.hasPrefix("----") || t.hasPrefix("Log      -") || t.hasPrefix("Activity -") || t.hasPrefix("Boundary -")
            || t.hasPrefix("Signpost -") || t.hasPrefix("Loss     -") || t.hasPrefix("Ephemeral data") || t.hasPrefix("Total ")
            || t.hasPrefix("Type ") && t.contains("Process")
    }
}

extension Substring {
    /// Without spaces at either end.
    var trimmed: String {
        let s = drop { $0 == " " }
        return String(s.reversed().drop { $0 == " " }.reversed())
    }
}

/// Splits a JSON array written over many lines into its objects, in bounded memory.
struct JSONArraySplitter {
    private var buffer: [UInt8] = []
    private var depth = 0
    private var inString = false
    private var escaped = false
    private var tooBig = false
    private var envelope = 0
    private(set) var openLine = 0

    /// Whether an object has begun and not ended.
    var open: Bool { depth > 0 }

    /// One object of the array: its bytes (nil when it was over the limit) and its first line.
    struct Object { var bytes: [UInt8]?; var line: Int }

    /// Feeds one line (with its newline); returns the objects it completes.
    mutating func feed(_ line: [UInt8], line number: Int) -> [Object] {
        var out: [Object] = []
        var sawOnlyEnvelope = depth == 0
        for c in line {
            if depth == 0 {
                if c == UInt8(ascii: "{") {
                    depth = 1
                    buffer = [c]
                    tooBig = false
                    openLine = number
                    sawOnlyEnvelope = false
                }
                continue
            }
            if !tooBig {
                buffer.append(c)
                if buffer.count > LogFileReader.maxObjectBytes { tooBig = true; buffer = [] }
            }
            if inString {
                if escaped { escaped = false } else if c == UInt8(ascii: "\\") { escaped = true } else if c == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch c {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                if depth == 0 {
                    out.append(Object(bytes: tooBig ? nil : buffer, line: openLine))
                    buffer = []
                }
            default: break
            }
        }
        if sawOnlyEnvelope && depth == 0 && out.isEmpty { envelope += 1 }
        return out
    }

    /// The lines that held only the array's brackets and commas since the last call.
    mutating func takeEnvelopeLines() -> Int {
        defer { envelope = 0 }
        return envelope
    }
}
