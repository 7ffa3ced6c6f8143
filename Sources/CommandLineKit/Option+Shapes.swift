/// An option a command cannot run without: parsing fails with a usage error naming it when it is
/// missing, and `args[option]` is the value itself, never nil.
package struct RequiredOption<Value: Sendable>: Sendable {
    /// The option as declared.
    package let option: Option<Value>
    /// How the usage error spells the missing option, e.g. `-o OUT.trace.zst`.
    package let example: String
}

/// An option that may be given more than once: `args[option]` is every value, in order.
package struct RepeatedOption<Value: Sendable>: Sendable {
    /// The option as declared (each occurrence is parsed by it).
    package let option: Option<Value>
}

extension Option {
    /// The same option, required; `example` is how the usage error names it when it is missing
    /// (default: `NAME <placeholder>`).
    package func required(_ example: String? = nil) -> RequiredOption<Value> {
        RequiredOption(option: self, example: example ?? AnyOption(self).synopsis)
    }

    /// The same option, allowed more than once.
    package func repeatable() -> RepeatedOption<Value> {
        RepeatedOption(option: self)
    }
}

/// An option of any value type, as a command's spec holds it: what `--help` prints and what the
/// parser checks. Every typed option (`Option`, `RequiredOption`, `RepeatedOption`) gives one.
package struct AnyOption: Sendable {
    /// The spelling, e.g. `--retry-delay-ms` or `-o`.
    package let name: String
    /// The value's placeholder in `--help`; empty for a flag.
    package let placeholder: String
    /// One sentence for `--help`.
    package let help: String
    /// What the option takes.
    package let kind: OptionKind
    /// Whether every occurrence counts (otherwise the last one does).
    package let isRepeated: Bool
    /// How a missing required option is named in the usage error; nil when it is optional.
    package let requiredAs: String?
    private let validate: @Sendable (String) throws(UsageError) -> Void

    /// The erased view of an optional option.
    package init<V>(_ o: Option<V>) { self.init(o, repeated: false, requiredAs: nil) }

    private init<V>(_ o: Option<V>, repeated: Bool, requiredAs: String?) {
        name = o.name
        placeholder = o.placeholder
        help = o.help
        kind = o.kind
        isRepeated = repeated
        self.requiredAs = requiredAs
        validate = { text throws(UsageError) in _ = try o.parse(text) }
    }

    /// The erased view of a required option.
    package init<V>(_ o: RequiredOption<V>) { self.init(o.option, repeated: false, requiredAs: o.example) }

    /// The erased view of a repeatable option.
    package init<V>(_ o: RepeatedOption<V>) { self.init(o.option, repeated: true, requiredAs: nil) }

    /// Whether the command cannot run without it.
    package var isRequired: Bool { requiredAs != nil }

    /// Whether the option takes a value.
    package var takesValue: Bool { kind != .flag }

    /// The left column of `--help`: `--name <placeholder>`.
    package var synopsis: String { takesValue ? "\(name) <\(placeholder)>" : name }

    /// The right column of `--help`: the help, then the values allowed.
    package var helpText: String {
        switch kind {
        case .integer(let r): help + " Range: " + OptionRange.text(r) + "."
        case .shaped(let shape?): help + " " + shape
        case .output(.document): help + KitMessageWords.isStandardOutput
        case .flag, .text, .choice, .output(.trace), .shaped(nil): help
        }
    }

    /// Checks one given value; throws the usage error naming the option, the value and what is allowed.
    package func check(_ value: String) throws(UsageError) { try validate(value) }
}

/// Anything a command can declare among its options: it says how the spec holds it.
package protocol DeclaredOption: Sendable {
    /// The type-erased declaration.
    var erased: AnyOption { get }
}

extension Option: DeclaredOption {
    /// The type-erased declaration.
    package var erased: AnyOption { AnyOption(self) }
}

extension RequiredOption: DeclaredOption {
    /// The type-erased declaration.
    package var erased: AnyOption { AnyOption(self) }
}

extension RepeatedOption: DeclaredOption {
    /// The type-erased declaration.
    package var erased: AnyOption { AnyOption(self) }
}
