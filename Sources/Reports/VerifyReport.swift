import Analysis
import TraceModel

/// `verify`: each thing checked as lines of text: `FILE: OK (N records, M frames)`, or what is wrong with
/// it (the first ten problems), a bundle's manifest, a session's missing parts.
package enum VerifyText {
    /// The lines of one verification.
    package static func render(_ v: Verification) -> String {
        switch v {
        case let .bundle(path, session, parts, problems):
            if problems.isEmpty { return InfoWords.bundleOK(terminalSafe(path), session: terminalSafe(session ?? "?")) + InfoWords.bundleParts(parts) + "\n" }
            var o = "\(terminalSafe(path)): DAMAGED: \(terminalSafe(problems[0]))\n"
            for p in problems.dropFirst().prefix(9) { o += "  " + terminalSafe(p) + "\n" }
            return o
        case let .unreadable(file, message):
            return "\(terminalSafe(file)): DAMAGED: \(terminalSafe(message))\n"
        case let .trace(s):
            if v.ok { return "\(terminalSafe(s.file)): OK (\(s.records) record\(s.records == 1 ? "" : "s"), \(s.stats.frames) frame\(s.stats.frames == 1 ? "" : "s"))\n" }
            let what = s.isNotATrace ? InfoWords.notATrace : "DAMAGED"
            var o = "\(terminalSafe(s.file)): \(what): \(terminalSafe(s.problems.first?.description ?? "unknown"))\n"
            for p in s.problems.dropFirst().prefix(9) { o += "  " + terminalSafe(p.description) + "\n" }
            if s.problemCount > 10 { o += "  … \(s.problemCount - 10) more\n" }
            return o
        case let .missingParts(session, missing, of):
            let text = "session \(session): part\(missing.count == 1 ? "" : "s") \(missing.map(String.init).joined(separator: ", ")) missing "
                + "(of parts 1–\(of) given)"
            return terminalSafe(text) + "\n"
        }
    }
}

/// `verify --json`: one object per thing checked, a line each (docs/json.md).
package enum VerifyJSON {
    /// One verification, one line without its end.
    package static func render(_ v: Verification) -> String {
        var w = JSONWriter()
        w.beginObject()
        switch v {
        case let .bundle(path, session, parts, problems):
            w.key("bundle"); w.path(path)
            w.key("ok"); w.bool(problems.isEmpty)
            w.key("session"); w.string(session)
            w.key("parts"); w.int(parts)
            w.key("problems"); w.beginArray(); for p in problems { w.string(p) }; w.endArray()
        case let .unreadable(file, message):
            w.key("file"); w.path(file); w.key("ok"); w.bool(false); w.key("error"); w.string(message)
        case let .trace(s):
            w.key("file"); w.path(s.file)
            w.key("ok"); w.bool(v.ok)
            w.key("records"); w.int(s.records)
            w.key("problems"); InfoJSON.problems(s.problems, &w)
        case let .missingParts(session, missing, _):
            w.key("session"); w.string(session); w.key("ok"); w.bool(false)
            w.key("missingParts"); w.beginArray(); for m in missing { w.int(m) }; w.endArray()
        }
        w.endObject()
        return w.string
    }
}
