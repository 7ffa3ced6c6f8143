/// An ISO 8601 wall-clock time turned into UTC, without a calendar library: the header's `startedAt`
/// carries the writer's offset (`2026-11-29T10:00:00+08:00`), and a fleet's days are UTC days. A time
/// without an offset names no instant, so it has no UTC form.
public enum UTCTime {
    /// `YYYY-MM-DDTHH:MM:SS.mmmZ` for `YYYY-MM-DD(T| )HH:MM[:SS[.fff…]](Z|±HH[:MM]|±HHMM)`, or nil for
    /// anything else. A time without an offset is nil: it is the writer's local time in a zone it does
    /// not name, so no instant follows from it (taking it as UTC was hours off, silently). Fractions are
    /// cut to milliseconds.
    public static func normalised(_ text: String) -> String? {
        guard let (ms, zoned) = parse(text), zoned else { return nil }
        return iso(ms)
    }

    /// `YYYY-MM-DDTHH:MM:SS.mmmZ` for milliseconds since 1970-01-01T00:00:00Z (negative ones included).
    public static func iso(_ ms: Int64) -> String {
        let dayIndex = floorDiv(Int(ms), 86_400_000)
        let inDay = Int(ms) - dayIndex * 86_400_000
        let (y, m, d) = civilDate(daysSince1970: dayIndex)
        let minutes = inDay / 60_000, second = inDay / 1000 % 60, millis = inDay % 1000
        return pad(y, 4) + "-" + pad(m, 2) + "-" + pad(d, 2) + "T" + pad(minutes / 60, 2) + ":" + pad(minutes % 60, 2) + ":"
            + pad(second, 2) + "." + pad(millis, 3) + "Z"
    }

    /// Milliseconds since 1970-01-01T00:00:00Z for the times `normalised` reads, or nil; a time without
    /// an offset is counted as if it were UTC, which only compares it with times written the same way
    /// (the parts of one session, whose headers one writer wrote).
    public static func milliseconds(_ text: String) -> Int64? {
        parse(text)?.ms
    }

    /// The time in milliseconds (a time without an offset counted as UTC), and whether it had an offset.
    static func parse(_ text: String) -> (ms: Int64, zoned: Bool)? {
        let b = Array(text.utf8)
        var i = 0
        func digits(_ n: Int) -> Int? {
            guard i + n <= b.count else { return nil }
            var v = 0
            for k in i..<(i + n) {
                guard b[k] >= 0x30 && b[k] <= 0x39 else { return nil }
                v = v * 10 + Int(b[k] - 0x30)
            }
            i += n
            return v
        }
        func take(_ c: UInt8) -> Bool {
            guard i < b.count, b[i] == c else { return false }
            i += 1
            return true
        }
        guard let year = digits(4), take(0x2D), let month = digits(2), take(0x2D), let day = digits(2),
              i < b.count, b[i] == 0x54 || b[i] == 0x74 || b[i] == 0x20 else { return nil }
        i += 1
        guard let hour = digits(2), take(0x3A), let minute = digits(2) else { return nil }
        var second = 0, millis = 0
        if take(0x3A) {
            guard let s = digits(2) else { return nil }
            second = s
            if take(0x2E) || take(0x2C) {
                var scale = 100, any = false
                while i < b.count, b[i] >= 0x30 && b[i] <= 0x39 {
                    millis += Int(b[i] - 0x30) * scale
                    scale /= 10
                    i += 1
                    any = true
                }
                guard any else { return nil }
            }
        }
        var offset = 0
        let zoned = i < b.count
        if zoned {
            if take(0x5A) || take(0x7A) {
                offset = 0
            } else if b[i] == 0x2B || b[i] == 0x2D {
                let sign = b[i] == 0x2D ? -1 : 1
                i += 1
                guard let oh = digits(2) else { return nil }
                var om = 0
                if i < b.count {
                    _ = take(0x3A)
                    guard let m = digits(2) else { return nil }
                    om = m
                }
                guard oh <= 23, om <= 59 else { return nil }
                offset = sign * (oh * 60 + om)
            } else {
                return nil
            }
        }
        guard i == b.count, (1...12).contains(month), day >= 1, day <= daysIn(month, year), hour <= 24, minute <= 59, second <= 60
        else { return nil }
        // Minutes since the epoch, then seconds and milliseconds.
        let minutes = (daysSince1970(year: year, month: month, day: day) * 24 + hour) * 60 + minute - offset
        return ((Int64(minutes) * 60 + Int64(second)) * 1000 + Int64(millis), zoned)
    }

    static func floorDiv(_ a: Int, _ b: Int) -> Int { a >= 0 ? a / b : -((-a + b - 1) / b) }

    static func isLeap(_ y: Int) -> Bool { (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 }

    static func daysIn(_ m: Int, _ y: Int) -> Int {
        switch m {
        case 2: isLeap(y) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    static func pad(_ v: Int, _ width: Int) -> String {
        let s = String(v)
        return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
    }
}
