import Analysis
import CommandLineKit
import Replay
import SystemLayer
import TraceCodec
import TraceModel

extension TraceInput {
    /// What the input lacks when no all-clear is given for it (`ReplayResult.unread`), for `--help` and the README.
    package static let unreadInput = WorkflowMessageWords.lostFrameShare(fixed(ReplayResult.undecodableShareLimit * 100, 0))
        + WorkflowMessageWords.undecodableMissingSeqsATornLast

    /// Replays the trace the TRACE arguments name (one file, or the parts of one session), warning
    /// on the context's standard error about reader problems and about a part replayed alone.
    package static func replay(_ arguments: [String], _ a: Arguments, in context: CommandContext,
                              observer: ((ReplayStep) -> Void)? = nil) throws -> ReplayResult {
        let session = try TraceInput.resolve(arguments, in: context)
        let result: ReplayResult
        if session.paths.count > 1 {
            // Not strict, and a part that cannot be opened is a problem (a warning): nothing is thrown.
            let replayed = (try? Replay.run(session, options: ReplayOptions(a), unopened: .isAProblem, pipelined: readOnItsOwnCore, observer: observer))
                ?? ReplayResult(file: session.first)
            if a[CommonOptions.strict], let p = replayed.problems.first { throw CommandFailure(message: p.description + " (--strict)") }
            for p in replayed.problems { context.warn(p) }
            result = replayed
        } else {
            result = try replay(session, a, in: context, observer: observer)
        }
        if let why = Wording.incompleteSession(result) {
            context.err.line("warning: " + terminalSafe(why) + " (" + Wording.completeSessionHint(result) + ")")
        }
        return result
    }

    /// Whether a single replay reads and decodes on a second core while it replays: when the process may
    /// run on two processors or more (`taskset -c 0` keeps it on one thread).
    static var readOnItsOwnCore: Bool { CurrentProcess.usableProcessorCount >= 2 }

    /// Replays one trace file, warning on the context's standard error about reader problems.
    static func replay(_ trace: TraceSession, _ a: Arguments, in context: CommandContext,
                       observer: ((ReplayStep) -> Void)? = nil) throws -> ReplayResult {
        let options = ReplayOptions(a)
        do {
            return try Replay.run(trace, options: options, strict: a[CommonOptions.strict], pipelined: readOnItsOwnCore,
                                  observer: observer, onProblem: context.warn)
        } catch let p as TraceProblem {
            throw CommandFailure(message: p.description + " (--strict)")
        } catch let e as CommandFailure {
            throw e
        } catch {
            throw commandError(error)
        }
    }

    /// Refuses a result with nothing to judge by (not a trace, no header, no records): exit 65.
    package static func requireExplainable(_ r: ReplayResult) throws {
        guard let why = r.unexplainable else { return }
        throw DataError(message: WorkflowMessageWords.notExplainable(r.file, why))
    }
}
