// What the reader of a device log export says of a line it cannot read, and the lines `log show` writes of its own.
enum EnvelopeWords {
    static func objectTooLarge(maxBytes: Int) -> String { "a JSON object over \(maxBytes) bytes" }
    static let noKnownEnvelope = "no entry of a known envelope"
    static let objectCutOffAtEnd = "a JSON object cut off at the end of the file"
    static func timestampNotATime(_ stamp: String) -> String { "timestamp \(stamp) is not a time" }

    /// The beginnings of `log show`'s own lines: its heading, the note on what it left out.
    static let filteringHeading = "Filtering the log data"
    static let skippingInfoAndDebug = "Skipping info and debug"
}
