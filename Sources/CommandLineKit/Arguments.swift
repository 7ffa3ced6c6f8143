/// Parsed command-line arguments of one command, read through the options that declared them
/// (an option the command does not declare reads as not given).
public struct Arguments {
    public var positionals: [String] = []
    private var values: [String: [String]] = [:]
    private var flags: Set<String> = []
    /// Whether `-h` or `--help` was given (then no value is checked).
    public private(set) var wantsHelp = false

    /// Parses `args` against `spec`, checking every value against its option's kind and range.
    public init(_ args: [String], spec: CommandSpec) throws {
        var i = 0
        var onlyPositionals = false
        var given: [(Option, String)] = []
        while i < args.count {
            var a = args[i]
            i += 1
            if onlyPositionals || a == "-" || !a.hasPrefix("-") { positionals.append(a); continue }
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
            guard option.takesValue else { flags.insert(a); continue }
            let v: String
            if let inline { v = inline } else {
                guard i < args.count else { throw UsageError(message: "missing value for '\(option.synopsis)'") }
                v = args[i]
                i += 1
            }
            values[a, default: []].append(v)
            given.append((option, v))
        }
        // Values are checked once the whole line is read, and not at all when help is asked for.
        if wantsHelp { return }
        for (option, v) in given { try option.check(v) }
    }

    /// Whether a flag was given.
    public func flag(_ o: Option) -> Bool {
        flags.contains(o.name)
    }

    /// An option's value (the last one when given more than once).
    public func string(_ o: Option) -> String? {
        values[o.name]?.last
    }

    /// Every value of a repeatable option, in order.
    public func strings(_ o: Option) -> [String] {
        values[o.name] ?? []
    }

    /// An integer option's value, already checked against its range.
    public func integer(_ o: Option) -> Int64? {
        guard let v = string(o), case .integer(let r) = o.kind else { return nil }
        // Checked when parsed: cannot fail here.
        return try? o.integer(v, in: r)
    }

    /// An integer option's value, or `d` when it was not given.
    public func integer(_ o: Option, default d: Int64) -> Int64 { integer(o) ?? d }
}
