/// Parsed command-line arguments of one command, read back typed through the options that declared
/// them (`args[option]`); an option the command does not declare reads as not given.
///
/// Every value is checked when the line is parsed (range, choice, shape), so a read cannot fail.
package struct Arguments {
    /// The arguments that are not options (everything after `--`, and `-`, included).
    package var positionals: [String] = []
    /// Every argument in the order given: an option's value with its name, a positional with none (for
    /// commands whose options are read as a sequence, such as the edits of `whatif`).
    package private(set) var sequence: [(option: String?, value: String)] = []
    private var values: [String: [String]] = [:]
    private var flags: Set<String> = []
    /// Whether `-h` or `--help` was given (then no value is checked and nothing is required).
    package private(set) var wantsHelp = false

    /// Parses `args` against `spec`, checking every value against its option's kind and range, and
    /// that every required option is there.
    package init(_ args: [String], spec: CommandSpec) throws(UsageError) {
        var i = 0
        var onlyPositionals = false
        var given: [(AnyOption, String)] = []
        while i < args.count {
            var a = args[i]
            i += 1
            if onlyPositionals || a == "-" || !a.hasPrefix("-") { positionals.append(a); sequence.append((nil, a)); continue }
            if a == "--" { onlyPositionals = true; continue }
            if a == "-h" || a == "--help" { wantsHelp = true; continue }
            var inline: String?
            if let eq = a.firstIndex(of: "="), a.hasPrefix("--") {
                inline = String(a[a.index(after: eq)...])
                a = String(a[..<eq])
            }
            guard let option = spec.option(named: a), option.takesValue || inline == nil else {
                throw UsageError(message: "unknown option '\(a)'")
            }
            guard option.takesValue else { flags.insert(a); sequence.append((a, "")); continue }
            let v: String
            if let inline { v = inline } else {
                guard i < args.count else { throw UsageError(message: KitMessageWords.missingValue(option.synopsis)) }
                v = args[i]
                i += 1
            }
            values[a, default: []].append(v)
            sequence.append((a, v))
            given.append((option, v))
        }
        // Values are checked once the whole line is read, and not at all when help is asked for.
        if wantsHelp { return }
        for (option, v) in given { try option.check(v) }
        for option in spec.options where option.isRequired && values[option.name] == nil {
            throw UsageError(message: "missing '\(option.requiredAs ?? option.synopsis)'")
        }
    }

    /// The last text given to the option named `name`, if any.
    private func last(_ name: String) -> String? { values[name]?.last }

    /// Whether a flag was given.
    package subscript(o: Option<Bool>) -> Bool {
        guard o.kind != .flag else { return flags.contains(o.name) }
        return last(o.name).flatMap { try? o.value($0) } ?? false
    }

    /// An optional option's value (the last one when given more than once), nil when not given.
    package subscript<V>(o: Option<V>) -> V? {
        // Checked when parsed: cannot fail here.
        last(o.name).flatMap { try? o.value($0) }
    }

    /// A required option's value (its presence was checked when parsed).
    package subscript<V>(o: RequiredOption<V>) -> V {
        guard let text = last(o.option.name), let v = try? o.option.value(text) else {
            preconditionFailure(KitHelpWords.undeclaredEnvironment(o.option.name))
        }
        return v
    }

    /// Every value of a repeatable option, in the order given.
    package subscript<V>(o: RepeatedOption<V>) -> [V] {
        (values[o.option.name] ?? []).compactMap { try? o.option.value($0) }
    }

    /// Whether the option was given at all (for options whose absence means something).
    package func isGiven(_ o: some DeclaredOption) -> Bool {
        let name = o.erased.name
        return flags.contains(name) || values[name] != nil
    }
}
