import TraceModel

/// One entry of a text export of the device's log, whatever its envelope: who logged it, when, and what.
public struct LogEntry: Sendable {
    /// The file it was read from, as given.
    public var file: String
    /// Its first line in the file (1-based).
    public var line: Int
    /// Its time as written (a `sys.*` record's `wall`).
    public var timeText: String
    /// Its time, parsed.
    public var clock: LogClock
    /// The level word as written (`Default`, `Error`, `par défaut`, …), when the envelope has one.
    public var level: String?
    /// The process that logged it.
    public var process: String
    /// Its process id, when the envelope has one.
    public var pid: Int?
    /// The process's image path (`processImagePath`), when the envelope has one.
    public var processPath: String?
    /// The log subsystem, when the envelope has one.
    public var subsystem: String?
    /// The message.
    public var message: String
}

/// An entry's time as written: a local date and time or a time of day alone, with the UTC offset
/// when one was written, and how precise the text is.
public struct LogClock: Sendable, Equatable {
    /// Milliseconds since 1970-01-01 00:00 in the line's own local time when `hasDate`, else since local midnight.
    public var localMs: Int64
    /// Whether the text carries a date (a Console copy's times do not).
    public var hasDate: Bool
    /// The UTC offset written with the time, in minutes east of UTC; nil when none was written.
    public var offsetMinutes: Int?
    /// How precise the text is: 1 ms for milliseconds or finer, 10 ms for centiseconds, 1000 ms for whole seconds.
    public var precisionMs: Int64

    /// Creates a time.
    public init(localMs: Int64, hasDate: Bool, offsetMinutes: Int?, precisionMs: Int64) {
        self.localMs = localMs
        self.hasDate = hasDate
        self.offsetMinutes = offsetMinutes
        self.precisionMs = precisionMs
    }

    /// Milliseconds in a day.
    public static let dayMs: Int64 = 86_400_000

    /// Reads `YYYY-MM-DD[ T]HH:MM[:SS[.fff…]][offset]` (a `log show` or ndjson timestamp) or
    /// `HH:MM[:SS[.fff…]][offset]` (a Console copy's time); the offset is `Z`, `±HH`, `±HHMM` or `±HH:MM`.
    /// Nil for anything else.
    public static func parse(_ text: String) -> LogClock? {
        let u = Array(text.utf8)
        if u.count >= 11, u[4] == 0x2D, u[7] == 0x2D, u[10] == 0x20 || u[10] == 0x54 || u[10] == 0x74 {
            guard let midnight = day(String(decoding: u[0..<10], as: UTF8.self)), var c = timeOfDay(u[11...]) else { return nil }
            c.localMs += midnight
            c.hasDate = true
            return c
        }
        return timeOfDay(u[...])
    }

    /// Milliseconds since 1970-01-01 at the start of `YYYY-MM-DD`, or nil.
    public static func day(_ date: String) -> Int64? {
        guard date.utf8.count == 10 else { return nil }
        return UTCTime.milliseconds(date + "T00:00:00Z")
    }

    /// `HH:MM[:SS[.fff…]][offset]`, as milliseconds since local midnight.
    static func timeOfDay(_ b: ArraySlice<UInt8>) -> LogClock? {
        var i = b.startIndex
        func digits(_ n: Int) -> Int? {
            guard i + n <= b.endIndex else { return nil }
            var v = 0
            for k in i..<(i + n) {
                guard (0x30...0x39).contains(b[k]) else { return nil }
                v = v * 10 + Int(b[k] - 0x30)
            }
            i += n
            return v
        }
        func take(_ c: UInt8) -> Bool {
            guard i < b.endIndex, b[i] == c else { return false }
            i += 1
            return true
        }
        guard let h = digits(2), h < 24, take(0x3A), let m = digits(2), m < 60 else { return nil }
        var ms = Int64(h * 3_600_000 + m * 60000), precision: Int64 = 60000
        if take(0x3A) {
            guard let s = digits(2), s <= 60 else { return nil }
            ms += Int64(s * 1000)
            precision = 1000
            if take(0x2E) || take(0x2C) {
                var scale: Int64 = 100, n = 0
                while i < b.endIndex, (0x30...0x39).contains(b[i]) {
                    if scale > 0 { ms += Int64(b[i] - 0x30) * scale }
                    scale /= 10
                    n += 1
                    i += 1
                }
                guard n > 0 else { return nil }
                precision = n >= 3 ? 1 : n == 2 ? 10 : 100
            }
        }
        var offset: Int?
        if i < b.endIndex {
            if take(0x5A) || take(0x7A) {
                offset = 0
            } else if b[i] == 0x2B || b[i] == 0x2D {
                let sign = b[i] == 0x2D ? -1 : 1
                i += 1
                guard let oh = digits(2), oh <= 14 else { return nil }
                var om = 0
                if i < b.endIndex {
                    _ = take(0x3A)
                    guard let v = digits(2), v < 60 else { return nil }
                    om = v
                }
                offset = sign * (oh * 60 + om)
            } else {
                return nil
            }
        }
        guard i == b.endIndex else { return nil }
        return LogClock(localMs: ms, hasDate: false, offsetMinutes: offset, precisionMs: precision)
    }

    /// `+HHMM` / `-HHMM` for an offset in minutes.
    public static func offsetText(_ minutes: Int) -> String {
        let a = abs(minutes)
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        return (minutes < 0 ? "-" : "+") + two(a / 60) + two(a % 60)
    }
}
