// What a record whose field does not read is told: the decoder's faults, each phrased once.
extension FieldFault {
    /// A count or offset below zero or past the reader's range.
    static func notNonNegative(_ field: String, got value: Int64) -> FieldFault {
        FieldFault(field: field, reason: "must be an integer ≥ 0, got \(value)")
    }

    /// A part number below one.
    static func notPositive(_ field: String, got value: Int64) -> FieldFault {
        FieldFault(field: field, reason: "must be an integer ≥ 1, got \(value)")
    }

    /// A time outside what a trace can hold.
    static func timeOutOfRange(_ value: Int64) -> FieldFault {
        FieldFault(field: "t", reason: "must be an integer from 0 to 2^53 ms, got \(value)")
    }

    /// A process id outside 0…`max`.
    static func notAProcessID(_ field: String, got value: Int64, max: Int32) -> FieldFault {
        FieldFault(field: field, reason: "must be a process id (0…\(max)), got \(value)")
    }

    /// A key given twice in a record (`inRecord`) or in an object inside it.
    static func duplicateKey(_ field: String, inRecord: Bool) -> FieldFault {
        FieldFault(field: field, reason: "appears more than once in the \(inRecord ? "record" : "object"); duplicate keys are refused (JSON tools disagree on which one counts)")
    }

    /// A field the record's type requires.
    static func missing(_ field: String) -> FieldFault { FieldFault(field: field, reason: "missing required field") }

    /// A value outside a closed vocabulary (its first 80 characters).
    static func unknownValue(_ raw: String, allowed: [String], field: String) -> FieldFault {
        FieldFault(field: field, reason: "unknown value \"\(raw.prefix(80))\" (expected one of: \(allowed.joined(separator: ", ")))")
    }

    /// A type name that is not UTF-8.
    static let typeNotUTF8 = FieldFault(field: "type", reason: "invalid UTF-8 in the line")

    /// A header of a later format version.
    static func unsupportedVersion(_ version: Int64) -> FieldFault {
        FieldFault(field: "version", reason: "unsupported version \(version) (this reader knows version 1)")
    }

    /// A reference to a seq (`orNull`: or null) that is not one.
    static func notASeq(_ field: String, orNull: Bool = false) -> FieldFault {
        FieldFault(field: field, reason: orNull ? "must be a seq ≥ 0 or null" : "must be a seq ≥ 0")
    }

    /// A reference to a divergence that is not an index.
    static let notADivergenceIndex = FieldFault(field: "ref", reason: "must be a divergence index ≥ 0")
}

extension JSONFault {
    static func unexpectedAfterObject(_ found: String) -> JSONFault { JSONFault(reason: "unexpected data after the object \(found)") }
    static let badRange = JSONFault(reason: "each range must be [from, to] with 0 ≤ from ≤ to")
}
