/// Times in one format everywhere in text output: the engines' messages, the reports and the tools.
/// A duration or a trace time as text, `1h 02m 03.456s` style.
public func formatDuration(_ ms: Int64) -> String {
    withDurationText(ms) { String(decoding: $0, as: UTF8.self) }
}

/// Calls `body` with the bytes of `formatDuration(ms)`, written on the stack: a phrase copies them where it
/// writes (`Phrase`), without a `String` between.
package func withDurationText<R>(_ ms: Int64, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
    // A trace whose t goes backwards gives negative spans; never trap on them.
    let negative = ms < 0
    let ms = negative ? (ms == .min ? .max : -ms) : ms
    let h = ms / 3_600_000, m = (ms / 60000) % 60, s = (ms / 1000) % 60, frac = ms % 1000
    // "[-][H]h [MM]m [S]S.FFFs", written right to left into a buffer on the stack (findings phrase thousands of
    // durations): minutes and seconds take two digits after a larger unit; at most 13 digits of hours and
    // 14 bytes more.
    return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { buf in
        var i = 32
        func put(_ c: UInt8) { i -= 1; buf[i] = c }
        func digits(_ v: Int64, atLeast: Int) {
            var v = v, n = 0
            repeat { put(UInt8(truncatingIfNeeded: v % 10) &+ UInt8(ascii: "0")); v /= 10; n += 1 } while v > 0 || n < atLeast
        }
        put(UInt8(ascii: "s"))
        digits(frac, atLeast: 3)
        put(UInt8(ascii: "."))
        digits(s, atLeast: h > 0 || m > 0 ? 2 : 1)
        if h > 0 || m > 0 {
            put(UInt8(ascii: " ")); put(UInt8(ascii: "m"))
            digits(m, atLeast: h > 0 ? 2 : 1)
            if h > 0 { put(UInt8(ascii: " ")); put(UInt8(ascii: "h")); digits(h, atLeast: 1) }
        }
        if negative { put(UInt8(ascii: "-")) }
        return body(UnsafeBufferPointer(rebasing: buf[i...]))
    }
}


/// The civil (proleptic Gregorian) date of a count of days since 1970-01-01, negative ones included
/// (Howard Hinnant's `civil_from_days`): the one calendar every header time, file name and UTC day uses.
public func civilDate(daysSince1970 days: Int) -> (year: Int, month: Int, day: Int) {
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let doe = z - era * 146_097
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
    let mp = (5 * doy + 2) / 153
    let d = doy - (153 * mp + 2) / 5 + 1
    let m = mp < 10 ? mp + 3 : mp - 9
    return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
}

/// The count of days since 1970-01-01 of a civil date (the inverse of `civilDate(daysSince1970:)`).
public func daysSince1970(year: Int, month: Int, day: Int) -> Int {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yoe = y - era * 400
    let doy = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
    return era * 146_097 + doe - 719_468
}
