import CommandLineKit
import SystemLayer
import TraceCodec
import TraceModel

/// `rtctrace verify`: strict integrity check of one or more traces.
enum VerifyCommand {
    static let json = Option.flag("--json", HelpWords.printOneJsonObjectPerTrace)

    static let spec = CommandSpec(
        name: "verify", usage: "verify TRACE|FOLDER|@LIST... [--json]",
        summary: HelpWords.checkTracesStrictlyExitIfAny,
        options: [json],
        details: HelpWords.aTraceCreatedByRtctraceMust,
        exits: ExitCodes(failure: HelpWords.aTraceIsDamagedAFrame, readsTraces: true))

    static let command = Command(spec: spec) { args, context in
        guard !args.positionals.isEmpty else { throw UsageError(message: MessageWords.expectedAtLeastOneTrace) }
        var damaged = 0, notTraces = 0
        var sessions: [String: [Int]] = [:]
        // A folder or @LIST stands for the traces in it, as for the other readers (verify took each
        // argument as one file: "is a directory"); files named outright are verified as given.
        var paths: [String] = [], seen: Set<String> = []
        for a in args.positionals {
            // A recorder's bundle: its manifest is checked (every part there, sizes and SHA-256), then each part.
            if !a.hasPrefix("@"), TraceBundle.isBundle(a, sniff: true), let bundle = TraceBundle.open(a) {
                damaged += bundleVerdict(bundle, json: args[json], in: context)
                for p in bundle.parts where seen.insert(p).inserted { paths.append(p) }
                continue
            }
            guard (a.hasPrefix("@") && a.count > 1) || FileSystem.isDirectory(a) else {
                if seen.insert(a).inserted { paths.append(a) }
                continue
            }
            let listed: PathList
            var skipped: [TriageInputs.Skipped] = [], unreadable: [TriageInputs.Unreadable] = []
            do { listed = try TriageInputs.expand([a], skipped: &skipped, unreadable: &unreadable) } catch { throw UsageError(message: "\(error)") }
            for e in skipped where e.reason.isRefusal { context.err.line("warning: \(terminalSafe(e.path)): skipped, \(terminalSafe(e.why))") }
            if listed.count == 0 && unreadable.isEmpty { throw DataError(message: MessageWords.noTraceFilesInIt(a)) }
            for i in 0..<listed.count where seen.insert(listed[i]).inserted { paths.append(listed[i]) }
            // A folder the walk could not read is verified as an unreadable file is: it fails, saying why.
            for u in unreadable where seen.insert(u.path).inserted {
                context.err.line("warning: \(terminalSafe(u.path)): \(terminalSafe(u.reason))")
                paths.append(u.path)
            }
        }
        for path in paths {
            let s: TraceSummary
            do { s = try TraceSummary.read(path) } catch let e as CommandFailure {
                damaged += 1
                if args[json] {
                    var w = JSONWriter()
                    w.beginObject(); w.key("file"); w.path(path); w.key("ok"); w.bool(false); w.key("error"); w.string(e.message); w.endObject()
                    context.out.line(w.string)
                } else { context.out.line("\(terminalSafe(path)): DAMAGED: \(terminalSafe(e.message))") }
                continue
            }
            if s.problems.contains(where: { $0.kind == .notATrace }) { notTraces += 1 }
            if let session = s.header?.session { sessions[session.id, default: []].append(session.part) }
            // A warning (a skipped byte-order mark) is said, and is no damage.
            let ok = s.damageCount == 0
            if ok && !args[json] { for p in s.problems { context.warn(p) } }
            if !ok { damaged += 1 }
            if args[json] {
                var w = JSONWriter()
                w.beginObject()
                w.key("file"); w.path(path)
                w.key("ok"); w.bool(ok)
                w.key("records"); w.int(s.records)
                w.key("problems"); problemsJSON(s.problems, &w)
                w.endObject()
                context.out.line(w.string)
            } else if ok {
                context.out.line("\(terminalSafe(path)): OK (\(s.records) record\(s.records == 1 ? "" : "s"), \(s.stats.frames) frame\(s.stats.frames == 1 ? "" : "s"))")
            } else {
                let what = s.problems.contains(where: { $0.kind == .notATrace }) ? MessageWords.notATrace : "DAMAGED"
                context.out.line("\(terminalSafe(path)): \(what): \(terminalSafe(s.problems.first?.description ?? "unknown"))")
                for p in s.problems.dropFirst().prefix(9) { context.out.line("  " + terminalSafe(p.description)) }
                if s.problemCount > 10 { context.out.line("  … \(s.problemCount - 10) more") }
            }
        }
        // Each file is checked on its own; the parts of a session must also all be there.
        for (id, parts) in sessions.sorted(by: { $0.key < $1.key }) {
            let have = Set(parts)
            let missing = (1...(parts.max() ?? 1)).filter { !have.contains($0) }
            guard !missing.isEmpty else { continue }
            damaged += 1
            let text = "session \(id): part\(missing.count == 1 ? "" : "s") \(missing.map(String.init).joined(separator: ", ")) missing "
                + "(of parts 1–\(parts.max() ?? 1) given)"
            if args[json] {
                var w = JSONWriter()
                w.beginObject(); w.key("session"); w.string(id); w.key("ok"); w.bool(false)
                w.key("missingParts"); w.beginArray(); for m in missing { w.int(m) }; w.endArray(); w.endObject()
                context.out.line(w.string)
            } else {
                context.out.line(terminalSafe(text))
            }
        }
        // Nothing given was a trace (an archive, a text file): the input is not a trace, as info and cat say.
        if notTraces == paths.count { return .dataError }
        return damaged == 0 ? .success : .failure
    }

    /// Says whether a bundle's manifest checks (every part it lists there, with its size and SHA-256);
    /// the number of its problems, each damage.
    static func bundleVerdict(_ b: TraceBundle, json: Bool, in context: CommandContext) -> Int {
        if json {
            var w = JSONWriter()
            w.beginObject()
            w.key("bundle"); w.path(b.path)
            w.key("ok"); w.bool(b.problems.isEmpty)
            w.key("session"); w.string(b.manifest?.session)
            w.key("parts"); w.int(b.parts.count)
            w.key("problems"); w.beginArray(); for p in b.problems { w.string(p) }; w.endArray()
            w.endObject()
            context.out.line(w.string)
        } else if b.problems.isEmpty {
            context.out.line(MessageWords.okBundleOfSession(terminalSafe(b.path), terminalSafe(b.manifest?.session ?? "?"))
                + MessageWords.partAsItsManifestListsThem(b.parts.count, b.parts.count == 1 ? "" : "s"))
        } else {
            context.out.line("\(terminalSafe(b.path)): DAMAGED: \(terminalSafe(b.problems[0]))")
            for p in b.problems.dropFirst().prefix(9) { context.out.line("  " + terminalSafe(p)) }
        }
        return b.problems.count
    }
}
