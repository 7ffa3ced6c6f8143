import Reports
import TraceFormat

/// Exit codes: 0 success, 1 findings / failed checks / damaged input, 64 usage error, 65 input that
/// is not a trace or holds nothing to judge (sysexits' data error).
enum ExitCode: Int32 {
    case success = 0
    case failure = 1
    case usage = 64
    case dataError = 65
}

/// Input that cannot be explained at all: printed as `Error: …`, exit 65.
struct DataError: Error {
    let message: String
}

/// A usage error: printed as `Error: …`, with the usage line and a pointer to `--help`.
struct UsageError: Error {
    let message: String
}

/// A failure that ends the command with exit 1 after printing its message.
struct CommandFailure: Error {
    let message: String
}

/// rtctrace's version, printed by `rtctrace --version` and `rtctrace version`.
let rtctraceVersion = "0.9.0"

/// A command's description: its name, usage, summary and options, for parsing and `--help`.
struct CommandSpec: Sendable {
    let name: String
    let usage: String
    let summary: String
    /// Every option the command takes, in `--help` order.
    var options: [Option] = []
    var details: String = ""

    var help: String {
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
    func option(named name: String) -> Option? { options.first { $0.name == name } }
}

/// Prints a trace problem as a warning on stderr.
func warn(_ p: TraceProblem) {
    Warnings.shared.add(p)
}

/// The warnings a command prints: the first `limit`, then only a count (printed at exit), so that a
/// trace of one bad record repeated a million times does not write a million lines.
final class Warnings: @unchecked Sendable {
    static let shared = Warnings()
    static let limit = 100
    private(set) var count = 0

    func add(_ p: TraceProblem) {
        count += 1
        if count <= Self.limit { Output.stderr.line("warning: " + terminalSafe(p.description)) }
    }

    /// The line that says how many were not printed, if any.
    func finish() {
        guard count > Self.limit else { return }
        Output.stderr.line("warning: … \(count - Self.limit) more problems not shown (\(count) in all; 'rtctrace verify' lists each)")
    }
}
