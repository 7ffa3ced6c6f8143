// What a line of JSON that does not read is told: the JSON reader's faults, each phrased once.
extension JSONFault {
    static let invalidUTF8InString = JSONFault(reason: "invalid UTF-8 in a string")
    static let badHexDigit = JSONFault(reason: "bad hex digit in \\u escape")
    static let unpairedSurrogate = JSONFault(reason: "unpaired surrogate in \\u escape")
    static let integerOutOfRange = JSONFault(reason: "integer out of range")
    static let numberOutOfRange = JSONFault(reason: "number out of range")
    static let minusWithoutDigit = JSONFault(reason: "invalid number: '-' is not followed by a digit")
    static let leadingZero = JSONFault(reason: "invalid number: leading zero")
    static let fractionalInteger = JSONFault(reason: "expected an integer, found a fractional number")
    static let lineTooLongToIndex = JSONFault(reason: "line too long to index")

    /// A value of another kind than `expected` (`a string`, `an integer`, …) where `found` is.
    static func expected(_ expected: String, found: String) -> JSONFault {
        JSONFault(reason: "expected \(expected), found \(found)")
    }

    /// No value where one must be; `found` says what is there instead.
    static func expectedValue(_ found: String) -> JSONFault { JSONFault(reason: "expected a value \(found)") }

    /// Something after the one value a line holds.
    static func moreAfterValue(_ found: String) -> JSONFault { JSONFault(reason: "more after the value \(found)") }

    /// A control character inside a string.
    static func controlCharacter(_ c: UInt8) -> JSONFault {
        JSONFault(reason: "control character 0x\(String(c, radix: 16)) inside a string")
    }

    /// Nesting past `max` levels.
    static func tooDeep(_ max: Int) -> JSONFault { JSONFault(reason: "nesting deeper than \(max) levels") }

    /// An object of more than `max` members.
    static func tooManyMembers(_ max: Int) -> JSONFault { JSONFault(reason: "object has more than \(max) members") }

    /// What is at the cursor, for a message: the end of the line, a character or a byte at a column.
    static func foundAt(_ byte: UInt8?, column: Int) -> String {
        guard let c = byte else { return "but the line ended" }
        if c >= 0x20 && c < 0x7F { return "but found '\(Character(Unicode.Scalar(c)))' at column \(column)" }
        return "but found byte 0x\(String(c, radix: 16)) at column \(column)"
    }
}
