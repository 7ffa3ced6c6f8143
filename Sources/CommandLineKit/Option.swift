/// One command-line option, declared once: its name, what it takes, its help, and how its value
/// is checked. The same value drives `--help` and parsing, so the two cannot disagree.
public struct Option: Sendable {
    /// What an option takes and how its value is checked.
    public enum Kind: Sendable {
        /// No value: present or not.
        case flag
        /// An integer within a closed range, checked when parsed.
        case integer(ClosedRange<Int64>)
        /// Any text (`nonEmpty`: not the empty string).
        case string(nonEmpty: Bool)
        /// One of a fixed list of words.
        case choice([String])
        /// A file to write, checked by `OutputTarget` (a document may go to `-`, standard output).
        case outputPath(OutputTarget.Content)
        /// Text with its own shape, checked by `check` (nil: fine; else why not); `shape` is
        /// what `--help` prints after the help text.
        case shaped(shape: String, check: @Sendable (String) -> String?)
    }

    /// The spelling, e.g. `--retry-delay-ms` or `-o`.
    public let name: String
    /// The value's placeholder in `--help`, e.g. `ms`; empty for a flag.
    public let placeholder: String
    /// One sentence for `--help`.
    public let help: String
    public let kind: Kind
    /// Whether every occurrence counts (otherwise the last one does, as always).
    public var repeated = false

    /// A flag.
    public static func flag(_ name: String, _ help: String) -> Option {
        Option(name: name, placeholder: "", help: help, kind: .flag)
    }

    /// An integer option with its closed range.
    public static func integer(_ name: String, _ placeholder: String, _ range: ClosedRange<Int64>, _ help: String) -> Option {
        Option(name: name, placeholder: placeholder, help: help, kind: .integer(range))
    }

    /// A text option.
    public static func string(_ name: String, _ placeholder: String, nonEmpty: Bool = false, repeated: Bool = false, _ help: String) -> Option {
        Option(name: name, placeholder: placeholder, help: help, kind: .string(nonEmpty: nonEmpty), repeated: repeated)
    }

    /// An option taking one of `words`.
    public static func choice(_ name: String, _ placeholder: String, _ words: [String], _ help: String) -> Option {
        Option(name: name, placeholder: placeholder, help: help, kind: .choice(words))
    }

    /// An output file holding `content`.
    /// The same option, allowed more than once (`Arguments.strings` gives every value).
    public func repeatable() -> Option {
        var o = self
        o.repeated = true
        return o
    }

    public static func output(_ name: String, _ placeholder: String, _ content: OutputTarget.Content, _ help: String) -> Option {
        Option(name: name, placeholder: placeholder, help: help, kind: .outputPath(content))
    }

    /// Whether the option takes a value.
    public var takesValue: Bool {
        if case .flag = kind { return false }
        return true
    }

    /// The left column of `--help`: `--name <placeholder>`.
    public var synopsis: String { takesValue ? "\(name) <\(placeholder)>" : name }

    /// The right column of `--help`: the help, then the values allowed.
    public var helpText: String {
        switch kind {
        case .integer(let r): help + " Range: " + Self.rangeText(r) + "."
        case .shaped(let shape, _): help + " " + shape
        case .outputPath(.document): help + " '-' is standard output."
        default: help
        }
    }

    /// `0…86400000`, or "any 64-bit integer" for the whole range.
    public static func rangeText(_ r: ClosedRange<Int64>) -> String {
        r == Int64.min...Int64.max ? "any 64-bit integer" : "\(r.lowerBound)…\(r.upperBound)"
    }

    /// Checks a value; throws a usage error naming the option, the value and what is allowed.
    public func check(_ value: String) throws {
        switch kind {
        case .flag, .outputPath: return
        case .integer(let r): _ = try integer(value, in: r)
        case .string(let nonEmpty):
            if nonEmpty && value.isEmpty { throw UsageError(message: "\(name): must not be empty") }
        case .choice(let words):
            guard words.contains(value) else {
                throw UsageError(message: "\(name): '\(value)' is not one of \(words.joined(separator: ", "))")
            }
        case .shaped(_, let check):
            if let why = check(value) { throw UsageError(message: "\(name): '\(value)' \(why)") }
        }
    }

    /// The value as an integer in `r`; a number beyond Int64 is out of range, not "not a number".
    public func integer(_ value: String, in r: ClosedRange<Int64>) throws -> Int64 {
        let digits = value.drop { $0 == "+" || $0 == "-" }
        let numeric = !digits.isEmpty && digits.allSatisfy { $0.isASCII && $0.isNumber } && value.count - digits.count <= 1
        guard numeric else { throw UsageError(message: "\(name): '\(value)' is not an integer (\(Self.rangeText(r)))") }
        guard let n = Int64(value), r.contains(n) else {
            throw UsageError(message: "\(name): \(value) is out of range \(Self.rangeText(r))")
        }
        return n
    }
}

/// Ranges shared by the options: a window or delay is at most a day, a count at most a million.
/// Bounded so that no value can overflow the engines' time arithmetic (`t + window`).
public enum OptionRange {
    /// A time window or delay in milliseconds: up to a day.
    public static let windowMs: ClosedRange<Int64> = 0...86_400_000
    /// A count of things (changes, replays, records): up to a million.
    public static func count(from low: Int64) -> ClosedRange<Int64> { low...1_000_000 }
}
