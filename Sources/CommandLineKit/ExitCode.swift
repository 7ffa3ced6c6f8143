import SystemLayer
import TraceCodec

/// How an rtctrace command ends: the one table of exit statuses. The failures follow sysexits(3)
/// where one fits, so that a script or a retry policy can tell a finding (1) from a failure to run.
///
/// A command returns `success` or `failure`; the other codes come from the error it throws
/// (`ExitCode.for(_:)`), decided in this one place.
package enum ExitCode: Int32, Sendable, CaseIterable {
    /// The command did what it was asked, and what it judged is fine (or it judges nothing).
    case success = 0
    /// The command ran, and the answer is "no": findings or divergences (`explain`), a failed check
    /// (`check`, `verify`), traces that differ (`diff`), a crossed `--fail-on` threshold (`triage`),
    /// damaged input under `--strict`; or the command stopped with an error that has no code of its
    /// own below (a refusal, a write that failed).
    case failure = 1
    /// The command line is wrong: an unknown command or option, a value out of its range or not among
    /// its choices, a required option missing, an output that is one of the inputs (sysexits' EX_USAGE).
    case usage = 64
    /// The input is not a trace at all, or holds nothing to judge: no header, no records, an archive
    /// (sysexits' EX_DATAERR).
    case dataError = 65
    /// A file could not be read or written for a reason outside the command line: a full disk, a
    /// folder that cannot be created, a device error (sysexits' EX_IOERR). Thrown as `IOFailure`.
    case ioError = 74

    /// The exit code an error ends a command with: its own when it carries one (`CommandError`), 74
    /// for a file that could not be read or written (`FileError`, `SystemError`), else `failure`.
    package static func `for`(_ error: any Error) -> ExitCode {
        commandError(error).exitCode
    }

    /// The outputs a command line is wrong about, for 64: one that is one of the inputs, and, for a command
    /// with `--force` (one that creates traces), one that exists without it. `force` nil phrases it for
    /// the table every command shares, true or false for a command that has `--force` or not (one whose
    /// outputs, like triage's rows or a report, are replaced).
    static func usageOutput(force: Bool?) -> String {
        switch force {
        case nil: KitMessageWords.anOutputThatIsOneOf
        case true?: KitMessageWords.usageOutputMeaningWithForce
        case false?: KitMessageWords.usageOutputMeaning
        }
    }

    /// What 64 means for a command that has `--force` or not.
    package static func usageMeaning(force: Bool) -> String {
        KitMessageWords.usageMeaning(usageOutput(force: force))
    }

    /// What the code says, in the one phrasing every command's `--help`, the README and docs/ use
    /// (`failure`'s meaning is each command's own: `ExitCodes.failure`).
    package var meaning: String {
        switch self {
        case .success: KitMessageWords.doneTheCommandDidWhatIt
        case .failure: KitMessageWords.theCommandRanAndItsAnswer
        case .usage: KitMessageWords.usageMeaning(Self.usageOutput(force: nil))
        case .dataError: KitMessageWords.theInputIsNotATrace
        case .ioError: KitMessageWords.aFileCouldNotBeRead
        }
    }
}

/// A command's exit codes, declared with its spec; `--help` states them from this and `ExitCode.meaning`.
/// Every command can end with 0, 64 and 74; 65 when it reads traces; 1 when it has an answer that can be no.
package struct ExitCodes: Sendable {
    /// What exit 1 means for this command, or nil when it never answers no.
    package var failure: String?
    /// Whether the command reads traces, so that an input with nothing in it ends it with 65.
    package var readsTraces: Bool

    /// A command that answers `failure` with 1 and reads traces (or not).
    package init(failure: String?, readsTraces: Bool = false) {
        self.failure = failure
        self.readsTraces = readsTraces
    }

    /// The codes, in order.
    package var codes: [ExitCode] {
        [.success] + (failure == nil ? [] : [.failure]) + [.usage] + (readsTraces ? [.dataError] : []) + [.ioError]
    }

    /// What `code` means for this command.
    package func meaning(_ code: ExitCode) -> String {
        code == .failure ? (failure ?? code.meaning) : code.meaning
    }
}

/// The error to end a command with for an error a library threw: its own when it is a `CommandError`,
/// an I/O failure (74) for a file that could not be read or written, else a failure (1) with its text.
package func commandError(_ error: any Error) -> any CommandError {
    if let e = error as? any CommandError { return e }
    if error is FileError || error is SystemError { return IOFailure(message: "\(error)") }
    return CommandFailure(message: "\(error)")
}

/// An error a command throws to end with a message and a given exit code.
package protocol CommandError: Error, Sendable {
    /// What went wrong, for the `Error:` line.
    var message: String { get }
    /// The status the command ends with.
    var exitCode: ExitCode { get }
}

/// A usage error: printed as `Error: …`, with the usage line and a pointer to `--help`; exit 64.
package struct UsageError: CommandError, Equatable {
    /// What went wrong, for the `Error:` line.
    package let message: String
    /// Creates the error.
    package init(message: String) { self.message = message }
    /// `usage` (64).
    package var exitCode: ExitCode { .usage }
}

/// Input that cannot be explained at all: printed as `Error: …`, exit 65.
package struct DataError: CommandError, Equatable {
    /// What went wrong, for the `Error:` line.
    package let message: String
    /// Creates the error.
    package init(message: String) { self.message = message }
    /// `dataError` (65).
    package var exitCode: ExitCode { .dataError }
}

/// A failure that ends the command with exit 1 after printing its message.
package struct CommandFailure: CommandError, Equatable {
    /// What went wrong, for the `Error:` line.
    package let message: String
    /// Creates the error.
    package init(message: String) { self.message = message }
    /// `failure` (1).
    package var exitCode: ExitCode { .failure }
}

/// A read or write that failed for a reason outside the command line (a full disk, a folder that
/// cannot be created): printed as `Error: …`, exit 74.
package struct IOFailure: CommandError, Equatable {
    /// What went wrong, for the `Error:` line.
    package let message: String
    /// Creates the error.
    package init(message: String) { self.message = message }
    /// `ioError` (74).
    package var exitCode: ExitCode { .ioError }
}
