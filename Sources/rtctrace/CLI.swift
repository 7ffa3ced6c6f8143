import Reports
import SystemLayer
import TraceFormat

/// Exit codes: 0 success, 1 findings / failed checks / damaged input, 64 usage error.
enum ExitCode: Int32 {
    case success = 0
    case failure = 1
    case usage = 64
}

/// A usage error: printed as `Error: …`, with the usage line and a pointer to `--help`.
struct UsageError: Error {
    let message: String
}

/// A failure that ends the command with exit 1 after printing its message.
struct CommandFailure: Error {
    let message: String
}

/// A command's description: its name, usage, summary and options, for parsing and `--help`.
struct CommandSpec: Sendable {
    let name: String
    let usage: String
    let summary: String
    /// Options taking a value: (name, value placeholder, help).
    var options: [(String, String, String)] = []
    /// Flags: (name, help).
    var flags: [(String, String)] = []
    var details: String = ""

    var help: String {
        var s = "OVERVIEW: \(summary)\n\nUSAGE: rtctrace \(usage)\n"
        if !options.isEmpty || !flags.isEmpty {
            s += "\nOPTIONS:\n"
            let rows = options.map { ("\($0.0) <\($0.1)>", $0.2) } + flags.map { ($0.0, $0.1) } + [("-h, --help", "Show help information.")]
            let width = rows.map(\.0.count).max() ?? 0
            for (left, right) in rows {
                s += "  " + left + String(repeating: " ", count: width - left.count + 2) + right + "\n"
            }
        }
        if !details.isEmpty { s += "\n" + details + "\n" }
        return s
    }
}

/// Parsed command-line arguments of one command.
struct Arguments {
    var positionals: [String] = []
    var values: [String: [String]] = [:]
    var flags: Set<String> = []

    /// Parses `args` against `spec`; `--help` is reported as a flag.
    init(_ args: [String], spec: CommandSpec) throws {
        let valued = Set(spec.options.map(\.0))
        let flagNames = Set(spec.flags.map(\.0))
        var i = 0
        var onlyPositionals = false
        while i < args.count {
            var a = args[i]
            i += 1
            if onlyPositionals || a == "-" || !a.hasPrefix("-") { positionals.append(a); continue }
            if a == "--" { onlyPositionals = true; continue }
            if a == "-h" || a == "--help" { flags.insert("--help"); continue }
            var inline: String?
            if let eq = a.firstIndex(of: "="), a.hasPrefix("--") {
                inline = String(a[a.index(after: eq)...])
                a = String(a[..<eq])
            }
            if valued.contains(a) {
                let v: String
                if let inline { v = inline } else {
                    guard i < args.count else { throw UsageError(message: "missing value for '\(a) <\(spec.options.first { $0.0 == a }!.1)>'") }
                    v = args[i]
                    i += 1
                }
                values[a, default: []].append(v)
            } else if flagNames.contains(a), inline == nil {
                flags.insert(a)
            } else {
                throw UsageError(message: "unknown option '\(a)'")
            }
        }
    }

    func has(_ flag: String) -> Bool { flags.contains(flag) }
    func value(_ name: String) -> String? { values[name]?.last }

    func int(_ name: String, default d: Int) throws -> Int {
        guard let v = value(name) else { return d }
        guard let n = Int(v) else { throw UsageError(message: "'\(name)' expects an integer, got '\(v)'") }
        return n
    }

    func int64(_ name: String) throws -> Int64? {
        guard let v = value(name) else { return nil }
        guard let n = Int64(v) else { throw UsageError(message: "'\(name)' expects an integer, got '\(v)'") }
        return n
    }
}

/// Buffered standard output (and error) with terminal-safe text helpers.
///
/// A failed write (a full disk, a closed pipe) is kept in `failure` and later output is dropped:
/// the command ends with an error naming the stream instead of exiting 0 with output lost.
final class Output: @unchecked Sendable {
    static let stdout = Output(.standardOutput, name: "standard output")
    static let stderr = Output(.standardError, name: "standard error")

    let descriptor: FileDescriptor
    let name: String
    private var buffer: [UInt8] = []
    /// The first write that failed, if any.
    private(set) var failure: SystemError?

    init(_ descriptor: FileDescriptor, name: String) {
        self.descriptor = descriptor
        self.name = name
        buffer.reserveCapacity(1 << 16)
    }

    /// Whether the stream is a terminal (colour and progress only then).
    lazy var isTerminal: Bool = descriptor.isTerminal

    func write(_ s: String) {
        buffer.append(contentsOf: s.utf8)
        if buffer.count >= 1 << 16 { flush() }
    }

    func write(bytes: UnsafeBufferPointer<UInt8>) {
        buffer.append(contentsOf: bytes)
        if buffer.count >= 1 << 16 { flush() }
    }

    func line(_ s: String = "") { write(s); write("\n") }

    func flush() {
        if failure == nil {
            buffer.withUnsafeBytes { p in
                do throws(SystemError) { try descriptor.writeAll(p) } catch { failure = error.about(name) }
            }
        }
        buffer.removeAll(keepingCapacity: true)
    }
}

/// Prints a trace problem as a warning on stderr.
func warn(_ p: TraceProblem) {
    Output.stderr.line("warning: " + terminalSafe(p.description))
}
