import Analysis
import CommandLineKit
import Reports
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
        let renderer = Renderers.verification(args[json] ? .verifyJSON : .verifyText)!
        var written = 0
        /// Writes a verdict as soon as it is known.
        func say(_ v: Verification) {
            context.out.write(renderer.item(v, at: written))
            written += 1
        }
        var damaged = 0, notTraces = 0
        var sessions: [String: [Int]] = [:]
        // A folder or @LIST stands for the traces in it, as for the other readers (verify took each
        // argument as one file: "is a directory"); files named outright are verified as given.
        var paths: [String] = [], seen: Set<String> = []
        for a in args.positionals {
            // A recorder's bundle: its manifest is checked (every part there, sizes and SHA-256), then each part.
            if !a.hasPrefix("@"), TraceBundle.isBundle(a, sniff: true), let bundle = TraceBundle.open(a) {
                say(Verification(bundle))
                damaged += bundle.problems.count
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
            if listed.count == 0 && unreadable.isEmpty { throw DataError(message: MessageWords.noTraceFiles(a)) }
            for i in 0..<listed.count where seen.insert(listed[i]).inserted { paths.append(listed[i]) }
            // A folder the walk could not read is verified as an unreadable file is: it fails, saying why.
            for u in unreadable where seen.insert(u.path).inserted {
                context.err.line("warning: \(terminalSafe(u.path)): \(terminalSafe(u.reason))")
                paths.append(u.path)
            }
        }
        for path in paths {
            let s: TraceSummary
            do { s = try TraceSummary.read(path) } catch {
                // A file that cannot be opened as a trace fails; a failure to read at all ends the command.
                guard let e = commandError(error) as? CommandFailure else { throw commandError(error) }
                damaged += 1
                say(.unreadable(file: path, message: e.message))
                continue
            }
            if s.isNotATrace { notTraces += 1 }
            if let session = s.header?.session { sessions[session.id, default: []].append(session.part) }
            let verdict = Verification.trace(s)
            // A warning (a skipped byte-order mark) is said, and is no damage.
            if verdict.ok && !args[json] { for p in s.problems { context.warn(p) } }
            if !verdict.ok { damaged += 1 }
            say(verdict)
        }
        // Each file is checked on its own; the parts of a session must also all be there.
        for (id, parts) in sessions.sorted(by: { $0.key < $1.key }) {
            let have = Set(parts)
            let missing = (1...(parts.max() ?? 1)).filter { !have.contains($0) }
            guard !missing.isEmpty else { continue }
            damaged += 1
            say(.missingParts(session: id, missing: missing, of: parts.max() ?? 1))
        }
        // Nothing given was a trace (an archive, a text file): the input is not a trace, as info and cat say.
        if notTraces == paths.count { return .dataError }
        return damaged == 0 ? .success : .failure
    }
}
