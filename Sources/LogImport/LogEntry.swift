import TraceModel

/// One entry of a text export of the device's log, whatever its envelope: who logged it, when, and what.
package struct LogEntry: Sendable {
    /// The file it was read from, as given.
    package var file: String
    /// Its first line in the file (1-based).
    package var line: Int
    /// Its time as written (a `sys.*` record's `wall`).
    package var timeText: String
    /// Its time, parsed.
    package var clock: LogClock
    /// The level word as written (`Default`, `Error`, `par défaut`, …), when the envelope has one.
    package var level: String?
    /// The process that logged it.
    package var process: String
    /// Its process id, when the envelope has one.
    package var pid: Int?
    /// The process's image path (`processImagePath`), when the envelope has one.
    package var processPath: String?
    /// The log subsystem, when the envelope has one.
    package var subsystem: String?
    /// The message.
    package var message: String
}

/// An entry's time as written: a local date and time or a time of day alone, with the UTC offset
/// when one was written, and how precise the text is.
package struct LogClock: Sendable, Equatable {
    /// Milliseconds since 1970-01-01 00:00 in the line's own local time when `hasDate`, else since local midnight.
    package var localMs: Int64
    /// Whether the text carries a date (a Console copy's times do not).
    package var hasDate: Bool
    /// The UTC offset written with the time, in minutes east of UTC; nil when none was written.
    package var offsetMinutes: Int?
    /// How precise the text is: 1 ms for milliseconds or finer, 10 ms for centiseconds, 1000 ms for whole seconds.
    package var precisionMs: Int64

    /// Creates a time.
    package init(localMs: Int64, hasDate: Bool, offsetMinutes: Int?, precisionMs: Int64) {
        self.localMs = localMs
        self.hasDate = hasDate
        self.offsetMinutes = offsetMinutes
        self.precisionMs = precisionMs
    }

    /// Milliseconds in a day.
    package static let dayMs: Int64 = 86_400_000

    /// Reads `YYYY-MM-DD[ T]HH:MM[:SS[.fff…]][offset]` (a `log show` or ndjson timestamp) or
    /// `HH:MM[:SS[.fff…]][offset]` (a Console copy's time); the offset is `Z`, `±HH`, `±HHMM` or `±HH:MM`.
    /// Nil for anything else.
    package static func parse(_ text: String) -> LogClock? {
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
    package static func day(_ date: String) -> Int64? {
        guard date.utf8.count == 10 else { return nil }
        return UTCTime.milliseconds(date + "T00:00:00Z")
    }

    /// `HH:MM[:SS[.fff…]][offset]`, as milliseconds since local midnight (a time of 24:00 or a second 60 is no line's).
    static func timeOfDay(_ b: ArraySlice<UInt8>) -> LogClock? {
        guard let c = UTCTime.clock(b), c.ms < dayMs else { return nil }
        let precision: Int64 = switch c.fractionDigits {
        case -1: 60_000
        case 0: 1000
        case 1: 100
        case 2: 10
        default: 1
        }
        return LogClock(localMs: c.ms, hasDate: false, offsetMinutes: c.offsetMinutes, precisionMs: precision)
    }

    /// `+HHMM` / `-HHMM` for an offset in minutes.
    package static func offsetText(_ minutes: Int) -> String {
        let a = abs(minutes)
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        return (minutes < 0 ? "-" : "+") + two(a / 60) + two(a % 60)
    }
}
