// What an import says: how it found the app's process, and why it refuses a log or a trace.
enum ImportWords {
    // How the app's process was found (AppIdentity).
    static func byBundleId(_ bundleId: String) -> String { "the trace's bundle id \(bundleId)" }
    static func onlyAppProcess(_ process: String) -> String { "the only app process in the log (\(process))" }

    // Refusals.
    static let noStartedAt = "the trace has no startedAt in its header: its records cannot be placed on the log's clock"
    static func noUTCOffset(file: String, line: Int, time: String) -> String {
        "\(file): line \(line): the time \(time) has no UTC offset, and no line "
            + "of the file gives one: give --utc-offset ±HHMM (the device's offset then), or import --into a trace holding an activation "
            + "the log also shows, which finds it"
    }
    static func noDeviceLogEntry(_ path: String, firstUnreadable: String) -> String {
        "\(path): no entry of a device log export found\(firstUnreadable); this reads `log show` "
            + "(default, compact, --style ndjson or json) and copies from Console; give an SDK's own log with --format TABLE.json"
    }
    static func unknownTypeNotRenumbered(seq: Int, type: String) -> String {
        "seq \(seq) (\(type)): a record of a type this version does not know, whose seq cannot be renumbered"
    }
}
