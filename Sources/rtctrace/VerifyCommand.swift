import Reports
import TraceFormat

/// `rtctrace verify`: strict integrity check of one or more traces.
enum VerifyCommand {
    static let json = Option.flag("--json", "Print one JSON object per trace.")

    static let spec = CommandSpec(
        name: "verify", usage: "verify TRACE... [--json]",
        summary: "Check traces strictly: exit 1 if any frame, record, seq or end mark is damaged.",
        options: [json],
        details: "A trace created by rtctrace must also end with its end mark: one cut at a frame boundary fails.")

    static let command = Command(spec: spec) { args in
        guard !args.positionals.isEmpty else { throw UsageError(message: "expected at least one TRACE") }
        var damaged = 0
        for path in args.positionals {
            let s: TraceSummary
            do { s = try TraceSummary.read(path) } catch let e as CommandFailure {
                damaged += 1
                if args.flag(json) {
                    var w = JSONWriter()
                    w.beginObject(); w.key("file"); w.string(path); w.key("ok"); w.bool(false); w.key("error"); w.string(e.message); w.endObject()
                    Output.stdout.line(w.string)
                } else { Output.stdout.line("\(terminalSafe(path)): DAMAGED: \(terminalSafe(e.message))") }
                continue
            }
            let ok = s.problemCount == 0
            if !ok { damaged += 1 }
            if args.flag(json) {
                var w = JSONWriter()
                w.beginObject()
                w.key("file"); w.string(path)
                w.key("ok"); w.bool(ok)
                w.key("records"); w.int(s.records)
                w.key("problems"); problemsJSON(s.problems, &w)
                w.endObject()
                Output.stdout.line(w.string)
            } else if ok {
                Output.stdout.line("\(terminalSafe(path)): OK (\(s.records) record\(s.records == 1 ? "" : "s"), \(s.stats.frames) frame\(s.stats.frames == 1 ? "" : "s"))")
            } else {
                Output.stdout.line("\(terminalSafe(path)): DAMAGED: \(terminalSafe(s.problems.first?.description ?? "unknown"))")
                for p in s.problems.dropFirst().prefix(9) { Output.stdout.line("  " + terminalSafe(p.description)) }
                if s.problemCount > 10 { Output.stdout.line("  … \(s.problemCount - 10) more") }
            }
        }
        return damaged == 0 ? .success : .failure
    }
}
