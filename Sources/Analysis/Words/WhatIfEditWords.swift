/// What a what-if says of an edit it cannot read or apply: the reason, for the field it names.
enum WhatIfEditWords {
    // MARK: Reading edits

    /// The source of edits given as options.
    static let commandLine = "the command line"
    /// A qualifier (`--after`, `--at`, `--from`) with no edit before it.
    static func qualifierWithoutEdit(_ option: String) -> String {
        "\(option) qualifies the edit before it, and there is none that takes it"
    }
    /// A qualifier given twice to one edit.
    static let givenTwice = "given twice"
    /// `--delay` without its milliseconds.
    static let delayNeedsMs = "expected the delay in ms after the seq (--delay SEQ MS)"
    /// A value that does not parse as JSON.
    static func notJSON(_ error: any Error) -> String { "not JSON: \(error)" }
    /// An edits file that is not an array.
    static let expectedArrayOfEdits = "expected a JSON array of edits"
    /// An item of an edits file that is not an object.
    static let expectedObject = "expected an object"
    /// An item without its edit's name.
    static func missingEditName(_ names: [String]) -> String {
        "missing or not a string (one of \(names.joined(separator: ", ")))"
    }
    /// A required field that is absent.
    static let missing = "missing"
    /// A number that is not an integer a trace can hold.
    static let expectedInteger = "expected an integer"
    /// A negative seq.
    static let negativeSeq = "a seq is not negative"
    /// A negative time.
    static let negativeTime = "a time is not negative"
    /// A field that needs a non-empty string.
    static let expectedNonEmptyString = "missing or not a non-empty string"
    /// A type that the trace format does not have.
    static func notARecordType(_ type: String) -> String { "'\(type)' is not a record type of the trace format" }
    /// An insert without its record.
    static let missingRecord = "missing or not a JSON object"
    /// An insert placed both or neither by time and by seq.
    static let atOrAfter = "give exactly one of 'at' (a time) and 'after' (a seq)"
    /// A name that is no edit.
    static func notAnEdit(_ name: String, names: [String]) -> String {
        "'\(name)' is not an edit (one of \(names.joined(separator: ", ")))"
    }
    /// A field the edit does not take.
    static func notAField(takes allowed: [String]) -> String {
        "not a field of this edit (it takes \(allowed.joined(separator: ", ")))"
    }
    /// An option value that is not an integer.
    static func notAnInteger(_ text: String) -> String { "expected an integer, got '\(text)'" }

    // MARK: Applying edits

    /// A seq that no record has.
    static func noSuchSeq(_ seq: Int) -> String { "no record with seq \(seq) in the trace" }
    /// A seq an earlier edit dropped.
    static func alreadyDropped(_ seq: Int) -> String { "seq \(seq) was dropped by an edit before this one" }
    /// A seq that is the header.
    static func isHeader(_ seq: Int) -> String { "seq \(seq) is a header, which no edit moves or drops" }
    /// A move of a record after itself.
    static let moveAfterItself = "a record cannot move after itself"
    /// A delay that takes a record before 0 or past the largest time.
    static func outsideTimes(seq: Int, to t: Int64) -> String { "moves seq \(seq) outside the trace's times (to \(t) ms)" }
    /// An insert past the largest time.
    static let beyondLargestTime = "beyond the largest time a record may carry"
    /// An inserted record that is not an object.
    static let recordNotAnObject = "not a JSON object"
    /// An inserted record that carries its own `seq` or `t`.
    static func insertedCarries(_ key: String) -> String {
        "an inserted record takes its \(key == "t" ? "time from 'at' or 'after'" : "seq afresh"); leave '\(key)' out"
    }
    /// An insert of a header.
    static let headerCannotBeInserted = "a header cannot be inserted"
}
