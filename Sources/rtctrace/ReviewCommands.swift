import Reports
import SystemLayer
import TraceFormat

/// `rtctrace accept` / `rtctrace reject`: review `NAME.golden.json.new` files written by `check --update`.
enum ReviewCommand {
    static func make(accept: Bool) -> Command {
        let name = accept ? "accept" : "reject"
        let spec = CommandSpec(
            name: name, usage: "\(name) [PATH...]",
            summary: accept ? "Promote pending NAME.golden.json.new snapshots to NAME.golden.json." : "Delete pending NAME.golden.json.new snapshots.",
            details: "PATH is a folder (searched recursively), a trace or a .new file; default: traces/. Nothing is written under CI=true.")
        return Command(spec: spec) { args in
            if CurrentProcess.environment("CI") == "true" {
                throw CommandFailure(message: "CI=true: snapshots are never written in CI")
            }
            let paths = args.positionals.isEmpty ? ["traces"] : args.positionals
            var pending: [String] = []
            for p in paths {
                if isDirectory(p) { pending += findNew(p) } else if p.hasSuffix(".golden.json.new") { pending.append(p) } else {
                    let n = GoldenCheck.snapshotPath(for: p) + ".new"
                    if fileExists(n) { pending.append(n) }
                }
            }
            for p in pending.sorted() {
                if accept {
                    let target = String(p.dropLast(4))
                    do throws(SystemError) { try FileSystem.rename(p, to: target) } catch {
                        throw CommandFailure(message: "\(p): cannot rename to \(target): \(error.reason)")
                    }
                    Output.stdout.line("accepted \(target)")
                } else {
                    FileSystem.removeIfPresent(p)
                    Output.stdout.line("rejected \(p)")
                }
            }
            if pending.isEmpty { Output.stdout.line("no pending snapshots") }
            return .success
        }
    }

    static func findNew(_ dir: String) -> [String] {
        filesBelow(dir, skipHidden: false).filter { $0.hasSuffix(".golden.json.new") }
    }
}
