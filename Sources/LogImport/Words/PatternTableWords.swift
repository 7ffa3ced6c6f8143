// What a pattern table (`--format TABLE.json`) is told when it does not read, and what it says of a line it cannot read.
enum PatternTableWords {
    static let versionMissing = "\"patternTable\": 1 is missing (the format's version)"
    static let shapesMissing = "\"shapes\": a non-empty list of shapes is missing"
    static func patternNotAString(_ shape: String, key: String) -> String { "\(shape): \"\(key)\" must be a regular expression in a string" }
    static func notARecordType(_ shape: String) -> String {
        "\(shape): \"type\" must be a record type of the trace format (api.*, os.*, obs.*, sdk.*, conn.*, srv.*, sys.*)"
    }
    static func recorderOwnType(_ shape: String, type: String) -> String { "\(shape): \"type\" \(type): the recorder's own records are not imported" }
    static func blockNeedsStartAndEnd(_ shape: String) -> String { "\(shape): a block needs both \"start\" and \"end\"" }
    static func maxLinesBelowOne(_ shape: String) -> String { "\(shape): \"maxLines\" must be at least 1" }
    static func fieldsNotAnObject(_ shape: String) -> String { "\(shape): \"fields\" must be an object of field names" }

    static func blockDoesNotMatch(_ shape: String) -> String { "\(shape): the block does not match \"match\"" }
    static func noEndLine(_ shape: String, within maxLines: Int) -> String { "\(shape): no end line within \(maxLines) lines" }
    static func fileEndsInsideBlock(_ shape: String) -> String { "\(shape): the file ends before the block's end line" }
    static func timeNotATime(_ shape: String, time: String) -> String { "\(shape): the time \(time) is not a time" }
}
