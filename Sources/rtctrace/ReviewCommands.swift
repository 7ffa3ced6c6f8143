import Analysis
import CommandLineKit
import SystemLayer
import TraceCodec
import TraceModel
import Workflows

/// `rtctrace accept` / `rtctrace reject`: review `NAME.golden.json.new` files written by `check --update`.
enum ReviewCommand {
    static func make(accept: Bool) -> Command {
        let name = accept ? "accept" : "reject"
        let spec = CommandSpec(
            name: name, usage: "\(name) [PATH...]",
            summary: accept ? "Promote pending NAME.golden.json.new snapshots to NAME.golden.json." : "Delete pending NAME.golden.json.new snapshots.",
            details: HelpWords.pathIsAFolderSearchedRecursively
                + HelpWords.onlyRegularFilesInsideTheFolder,
            exits: ExitCodes(failure: HelpWords.ciIsSetSoSnapshotsAre, readsTraces: false))
        return Command(spec: spec) { args, context in
            if ContinuousIntegration.isOn(context) {
                throw CommandFailure(message: HelpWords.noSnapshotsUnderCI(ContinuousIntegration.setting(context)))
            }
            let paths = args.positionals.isEmpty ? ["traces"] : args.positionals
            var pending: [String] = []
            for p in paths {
                // A path that is not there is the command line's mistake (it exited 0: "no pending snapshots").
                guard (try? FileSystem.statusIfExists(p, followLinks: false)) != nil || p.hasSuffix(".golden.json.new") else {
                    throw UsageError(message: FileWords.noSuchFileOrFolder(p))
                }
                do {
                    if FileSystem.isDirectory(p) {
                        pending += try findNew(p, in: context)
                        continue
                    }
                    let n = p.hasSuffix(".golden.json.new") ? p : GoldenCheck.snapshotPath(for: p) + ".new"
                    guard (try? FileSystem.statusIfExists(n, followLinks: false)) != nil else {
                        // A .new file named outright is reviewed even when missing, as always
                        // (accept then fails naming it; reject has nothing to delete).
                        if n == p { pending.append(n) }
                        continue
                    }
                    if let why = try FolderWalk.around(file: n).refusal(n, links: false) {
                        context.err.line("warning: \(terminalSafe(n)): left alone, \(terminalSafe(why))")
                    } else {
                        pending.append(n)
                    }
                } catch let e as SystemError {
                    throw IOFailure(message: e.description)
                }
            }
            // Each rename or deletion is said as it is done; one that fails is said as failed (a
            // read-only folder used to print "rejected" for files that remained), the others go on,
            // and the command ends with 74 naming how many failed.
            var failures: [String] = []
            for p in Array(Set(pending)).sorted() {
                if accept {
                    let target = String(p.dropLast(4))
                    do throws(SystemError) {
                        try FileSystem.rename(p, to: target)
                        context.out.line("accepted \(terminalSafe(target))")
                    } catch {
                        failures.append(HelpWords.renameFailed(p, target, error.reason))
                    }
                } else {
                    do throws(SystemError) {
                        try FileSystem.remove(p)
                        context.out.line("rejected \(terminalSafe(p))")
                    } catch where error.errno == .noSuchFile {
                        context.out.line(HelpWords.rejectedGone(terminalSafe(p)))
                    } catch {
                        failures.append("\(p): cannot delete: \(error.reason)")
                    }
                }
            }
            if pending.isEmpty { context.out.line(HelpWords.noPendingSnapshots) }
            guard failures.isEmpty else {
                for f in failures.dropLast() { context.err.line("Error: \(terminalSafe(f))") }
                let what = accept ? "accepted" : "rejected"
                throw IOFailure(message: failures.last! + (failures.count > 1 ? HelpWords.snapshotsNotDone(failures.count, Set(pending).count, what) : ""))
            }
            return .success
        }
    }

    /// Pending snapshots below `dir`: regular files only, never through a link (a linked folder
    /// must not let a review rename or delete files outside the tree).
    static func findNew(_ dir: String, in context: CommandContext) throws(SystemError) -> [String] {
        let walk = try FolderWalk(dir).files(skipHidden: false, links: false)
        for s in walk.skipped where s.path.hasSuffix(".golden.json.new") || s.reason.contains("folder") {
            context.err.line("warning: \(terminalSafe(s.path)): left alone, \(terminalSafe(s.reason))")
        }
        return walk.files.filter { $0.hasSuffix(".golden.json.new") }
    }
}
