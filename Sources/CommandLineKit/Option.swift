/// What an option takes, as `--help` describes it and as tests read it back.
package enum OptionKind: Sendable, Equatable {
    /// No value: present or not.
    case flag
    /// An integer within a closed range, checked when parsed.
    case integer(ClosedRange<Int64>)
    /// Any text (`nonEmpty`: not the empty string).
    case text(nonEmpty: Bool)
    /// One of a fixed list of words, in `--help` and error order.
    case choice([String])
    /// A file to write, checked by `OutputTarget` when the command knows its inputs.
    case output(OutputTarget.Content)
    /// Text with its own shape, checked by the option's parser; `shape` is what `--help` prints
    /// after the help sentence (nil: nothing).
    case shaped(shape: String?)
}

/// One command-line option, declared once: its name, what it takes, its help, and how its text is
/// turned into a `Value`. The same declaration drives `--help` and parsing, so the two cannot
/// disagree, and a command reads the value back typed (`args[option]`), never as text.
///
/// An option is optional and given at most once (the last one counts); `required(_:)` and
/// `repeatable()` make the other two shapes.
package struct Option<Value: Sendable>: Sendable {
    /// The spelling, e.g. `--retry-delay-ms` or `-o`.
    package let name: String
    /// The value's placeholder in `--help`, e.g. `ms`; empty for a flag.
    package let placeholder: String
    /// One sentence for `--help`.
    package let help: String
    /// What the option takes.
    package let kind: OptionKind
    /// Turns one given text into the value, or says why it cannot (a usage error naming the option).
    let parse: @Sendable (String) throws(UsageError) -> Value

    /// Declares an option; `parse` names the option in its errors.
    package init(name: String, placeholder: String, help: String, kind: OptionKind,
                parse: @escaping @Sendable (String) throws(UsageError) -> Value) {
        self.name = name
        self.placeholder = placeholder
        self.help = help
        self.kind = kind
        self.parse = parse
    }

    /// The value of one given text (for a flag: true).
    package func value(_ text: String) throws(UsageError) -> Value { try parse(text) }
}

extension Option where Value == Bool {
    /// A flag: `args[flag]` is whether it was given.
    package static func flag(_ name: String, _ help: String) -> Option<Bool> {
        Option(name: name, placeholder: "", help: help, kind: .flag) { _ in true }
    }
}

extension Option where Value == Int64 {
    /// An integer option with its closed range (a number beyond Int64 is out of range, not "not a number").
    package static func integer(_ name: String, _ placeholder: String, _ range: ClosedRange<Int64>, _ help: String) -> Option<Int64> {
        Option(name: name, placeholder: placeholder, help: help, kind: .integer(range)) { text throws(UsageError) in
            try integerValue(text, in: range, option: name)
        }
    }
}

extension Option where Value == String {
    /// A text option (`nonEmpty`: the empty string is a usage error).
    package static func string(_ name: String, _ placeholder: String, nonEmpty: Bool = false, _ help: String) -> Option<String> {
        Option(name: name, placeholder: placeholder, help: help, kind: .text(nonEmpty: nonEmpty)) { text throws(UsageError) in
            if nonEmpty && text.isEmpty { throw UsageError(message: KitHelpWords.mustNotBeEmpty(name)) }
            return text
        }
    }
}

extension Option where Value: RawRepresentable & CaseIterable, Value.RawValue == String {
    /// An option taking one of `Value`'s words (its raw values, in declaration order).
    package static func choice(_ name: String, _ placeholder: String, _ type: Value.Type = Value.self, _ help: String) -> Option<Value> {
        choice(name, placeholder, among: Array(Value.allCases), help)
    }
}

extension Option where Value: RawRepresentable, Value.RawValue == String {
    /// An option taking one of `values`' words (their raw values, in the order given).
    package static func choice(_ name: String, _ placeholder: String, among values: [Value], _ help: String) -> Option<Value> {
        let words = values.map(\.rawValue)
        return Option(name: name, placeholder: placeholder, help: help, kind: .choice(words)) { text throws(UsageError) in
            guard let value = Value(rawValue: text), words.contains(text) else {
                throw UsageError(message: KitHelpWords.notAChoice(name, text, words.joined(separator: ", ")))
            }
            return value
        }
    }
}

extension Option where Value == OutputPath {
    /// An output file holding `content`, resolved against the command's inputs by `Arguments.output`.
    package static func output(_ name: String, _ placeholder: String, _ content: OutputTarget.Content, _ help: String) -> Option<OutputPath> {
        Option(name: name, placeholder: placeholder, help: help, kind: .output(content)) { text throws(UsageError) in
            // Caught here, before any work (an empty name would fail only when the output is written).
            guard !text.isEmpty else { throw UsageError(message: KitHelpWords.emptyPath(name)) }
            return OutputPath(path: text, option: name, content: content)
        }
    }
}

extension Option {
    /// Text with its own shape: `parse` gives the value or nil, and nil is the usage error
    /// "NAME: 'TEXT' WHY". `shape` is printed in `--help` after the help sentence.
    package static func shaped(_ name: String, _ placeholder: String, shape: String?, _ help: String, invalid why: String,
                              parse: @escaping @Sendable (String) -> Value?) -> Option<Value> {
        Option(name: name, placeholder: placeholder, help: help, kind: .shaped(shape: shape)) { text throws(UsageError) in
            guard let value = parse(text) else { throw UsageError(message: "\(name): '\(text)' \(why)") }
            return value
        }
    }

    /// Text with its own shape whose parser writes its own usage error (for messages older than
    /// this declaration); `--help` prints the help sentence only.
    package static func parsed(_ name: String, _ placeholder: String, _ help: String,
                              parse: @escaping @Sendable (String) throws(UsageError) -> Value) -> Option<Value> {
        Option(name: name, placeholder: placeholder, help: help, kind: .shaped(shape: nil), parse: parse)
    }
}

/// The integer `text` names, if it is one and lies in `r`; else a usage error naming `option`,
/// the value and the range. A number beyond Int64 is out of range, not "not a number".
func integerValue(_ text: String, in r: ClosedRange<Int64>, option: String) throws(UsageError) -> Int64 {
    let digits = text.drop { $0 == "+" || $0 == "-" }
    let numeric = !digits.isEmpty && digits.allSatisfy { $0.isASCII && $0.isNumber } && text.count - digits.count <= 1
    guard numeric else { throw UsageError(message: KitMessageWords.notAnInteger(option, text, OptionRange.text(r))) }
    guard let n = Int64(text), r.contains(n) else {
        throw UsageError(message: KitMessageWords.outOfRange(option, text, OptionRange.text(r)))
    }
    return n
}

/// Ranges shared by the options: a window or delay is at most a day, a count at most a million.
/// Bounded so that no value can overflow the engines' time arithmetic (`t + window`).
package enum OptionRange {
    /// A time window or delay in milliseconds: up to a day.
    package static let windowMs: ClosedRange<Int64> = 0...86_400_000
    /// A count of things (changes, replays, records): up to a million.
    package static func count(from low: Int64) -> ClosedRange<Int64> { low...1_000_000 }

    /// `0…86400000`, or "any 64-bit integer" for the whole range.
    package static func text(_ r: ClosedRange<Int64>) -> String {
        r == Int64.min...Int64.max ? "any 64-bit integer" : "\(r.lowerBound)…\(r.upperBound)"
    }
}
