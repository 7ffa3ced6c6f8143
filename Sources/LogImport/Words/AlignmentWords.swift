// How an import placed the log's lines on the trace's clock, in words, and why it could not.
enum AlignmentWords {
    static func logsOwnClock(uncertaintyMs: Int64) -> String {
        "the log's own clock (t from its first line, the header's startedAt), ±\(uncertaintyMs) ms"
    }
    static func wallClock(uncertaintyMs: Int64) -> String {
        "wall clock (the log's UTC times against the trace's startedAt), ±\(uncertaintyMs) ms"
    }
    static func anchored(anchors: Int, shiftMs: Int64, foundOffset: String?, uncertaintyMs: Int64) -> String {
        let shift = shiftMs == 0 ? "" : ", \(shiftMs > 0 ? "+" : "")\(shiftMs) ms from the wall clock"
        let zone = foundOffset.map { ", the log's UTC offset \($0) found by the anchor" } ?? ""
        return "anchored on \(anchors) activation\(anchors == 1 ? "" : "s") both the log and the trace hold\(shift)\(zone), ±\(uncertaintyMs) ms"
    }
    static func notADate(_ date: String) -> String { "--date \(date): not a date YYYY-MM-DD" }
    static func noDate(file: String, line: Int, time: String) -> String {
        "\(file): line \(line): the time \(time) has no date "
            + "(a Console copy's times have none): give --date YYYY-MM-DD, or import it --into the trace, whose startedAt gives the day"
    }

}
