import TraceModel
/// UTC wall-clock times as the recorder writes them: `startedAt` (ISO 8601 with milliseconds) and file
/// stamps. Computed by hand (civil-from-days), so no formatter, locale or calendar is involved.
enum WallTime {
    /// `2026-11-29T10:00:00.123Z`.
    static func iso(_ ms: Int64) -> String { UTCTime.iso(ms) }

    /// `20261129T100000123Z`.
    static func stamp(_ ms: Int64) -> String {
        let c = civil(ms)
        return "\(pad(c.y, 4))\(pad(c.mo, 2))\(pad(c.d, 2))T\(pad(c.h, 2))\(pad(c.mi, 2))\(pad(c.s, 2))\(pad(c.ms, 3))Z"
    }

    /// Reads `iso(_:)`'s form, with or without the milliseconds.
    static func parseISO(_ s: String) -> Int64? {
        let d = Array(s.utf8)
        guard d.count == 20 || d.count == 24, d.last == UInt8(ascii: "Z"), d[4] == UInt8(ascii: "-"), d[7] == UInt8(ascii: "-"),
              d[10] == UInt8(ascii: "T"), d[13] == UInt8(ascii: ":"), d[16] == UInt8(ascii: ":") else { return nil }
        guard let y = num(d, 0, 4), let mo = num(d, 5, 2), let day = num(d, 8, 2), let h = num(d, 11, 2),
              let mi = num(d, 14, 2), let sec = num(d, 17, 2) else { return nil }
        var ms = 0
        if d.count == 24 {
            guard d[19] == UInt8(ascii: "."), let m = num(d, 20, 3) else { return nil }
            ms = m
        }
        return compose(y, mo, day, h, mi, sec, ms)
    }

    /// Reads `stamp(_:)`'s form.
    static func parseStamp(_ s: String) -> Int64? {
        let d = Array(s.utf8)
        guard d.count == 19, d[8] == UInt8(ascii: "T"), d[18] == UInt8(ascii: "Z"),
              let y = num(d, 0, 4), let mo = num(d, 4, 2), let day = num(d, 6, 2), let h = num(d, 9, 2),
              let mi = num(d, 11, 2), let sec = num(d, 13, 2), let ms = num(d, 15, 3) else { return nil }
        return compose(y, mo, day, h, mi, sec, ms)
    }

    private static func compose(_ y: Int, _ mo: Int, _ d: Int, _ h: Int, _ mi: Int, _ s: Int, _ ms: Int) -> Int64? {
        guard (1...12).contains(mo), (1...31).contains(d), h < 24, mi < 60, s < 61 else { return nil }
        let days = daysSince1970(year: y, month: mo, day: d)
        return ((Int64(days) * 24 + Int64(h)) * 60 + Int64(mi)) * 60_000 + Int64(s) * 1000 + Int64(ms)
    }

    private static func num(_ d: [UInt8], _ at: Int, _ n: Int) -> Int? {
        var v = 0
        for i in at..<at + n {
            guard d[i] >= 48 && d[i] <= 57 else { return nil }
            v = v * 10 + Int(d[i] - 48)
        }
        return v
    }

    private static func pad(_ v: Int, _ width: Int) -> String {
        let s = String(v)
        return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
    }

    private static func civil(_ ms: Int64) -> (y: Int, mo: Int, d: Int, h: Int, mi: Int, s: Int, ms: Int) {
        let msOfDay = ((ms % 86_400_000) + 86_400_000) % 86_400_000
        let days = Int((ms - msOfDay) / 86_400_000)
        let (y, m, d) = civilDate(daysSince1970: days)
        let t = Int(msOfDay)
        return (y, m, d, t / 3_600_000, t / 60_000 % 60, t / 1000 % 60, t % 1000)
    }
}
