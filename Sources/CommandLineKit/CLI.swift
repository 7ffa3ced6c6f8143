import TraceCodec
import TraceModel

/// Exit codes: 0 success, 1 findings / failed checks / damaged input, 64 usage error, 65 input that
/// is not a trace or holds nothing to judge (sysexits' data error).
public enum ExitCode: Int32 {
    case success = 0
    case failure = 1
    case usage = 64
    case dataError = 65
}

/// Input that cannot be explained at all: printed as `Error: …`, exit 65.
public struct DataError: Error {
    /// What went wrong, for the `Error:` line.
    public let message: String
    /// Creates the error.
    public init(message: String) { self.message = message }
}

/// A usage error: printed as `Error: …`, with the usage line and a pointer to `--help`.
public struct UsageError: Error {
    /// What went wrong, for the `Error:` line.
    public let message: String
    /// Creates the error.
    public init(message: String) { self.message = message }
}

/// A failure that ends the command with exit 1 after printing its message.
public struct CommandFailure: Error {
    /// What went wrong, for the `Error:` line.
    public let message: String
    /// Creates the error.
    public init(message: String) { self.message = message }
}

/// rtctrace's version, printed by `rtctrace --version` and `rtctrace version`.
public let rtctraceVersion = "0.9.0"

/// A command's description: its name, usage, summary and options, for parsing and `--help`.
public struct CommandSpec: Sendable {
    public let name: String
    public let usage: String
    public let summary: String
    /// Every option the command takes, in `--help` order.
    public var options: [Option] = []
    public var details: String = ""

    /// Creates a command's description.
    public init(name: String, usage: String, summary: String, options: [Option] = [], details: String = "") {
        self.name = name
        self.usage = usage
        self.summary = summary
        self.options = options
        self.details = details
    }

    public var help: String {
        var s = "OVERVIEW: \(summary)\n\nUSAGE: rtctrace \(usage)\n"
        if !options.isEmpty {
            s += "\nOPTIONS:\n"
            let rows = options.map { ($0.synopsis, $0.helpText) } + [("-h, --help", "Show help information.")]
            let width = rows.map(\.0.count).max() ?? 0
            for (left, right) in rows {
                s += "  " + left + String(repeating: " ", count: width - left.count + 2) + right + "\n"
            }
        }
        if !details.isEmpty { s += "\n" + details + "\n" }
        return s
    }

    /// The declared option spelled `name`.
    public func option(named name: String) -> Option? { options.first { $0.name == name } }
}

/// Prints a trace problem as a warning on stderr.
public func warn(_ p: TraceProblem) {
    Warnings.shared.add(p)
}

/// The warnings a command prints: the first `limit`, then only a count (printed at exit), so that a
/// trace of one bad record repeated a million times does not write a million lines.
public final class Warnings: @unchecked Sendable {
    public static let shared = Warnings()
    public static let limit = 100
    private(set) var count = 0

    public func add(_ p: TraceProblem) {
        count += 1
        if count <= Self.limit { Output.stderr.line("warning: " + terminalSafe(p.description)) }
    }

    /// The line that says how many were not printed, if any.
    public func finish() {
        guard count > Self.limit else { return }
        Output.stderr.line("warning: … \(count - Self.limit) more problems not shown (\(count) in all; 'rtctrace verify' lists each)")
    }
}
