import Contract
import TraceModel

/// The rule catalogue rendered for `rtctrace rules`: the whole list, or one entry in full, like
/// `rustc --explain`.
package enum RulesReport {
    /// One entry of the catalogue: a rule or a finding code.
    package enum Entry: Equatable, Sendable {
        case rule(RuleID)
        case code(FindingCode)

        /// Looks an id or a code up, ignoring case (`x3`, `route.INEFFECTIVE`).
        package init?(_ name: String) {
            let lower = name.lowercased()
            if let r = RuleID.allCases.first(where: { $0.rawValue.lowercased() == lower }) {
                self = .rule(r)
            } else if let c = FindingCode.allCases.first(where: { $0.rawValue.lowercased() == lower }) {
                self = .code(c)
            } else {
                return nil
            }
        }
    }

    /// Every rule by section, then every finding code, one line each.
    package static func list() -> String {
        var o = CatalogueWords.rulesSeeRtctraceRulesId
        var section = ""
        for r in RuleID.allCases {
            if r.section != section {
                section = r.section
                o += "\n  \(section)\n"
            }
            o += "    " + r.rawValue.padded(5) + r.title + "\n"
        }
        o += CatalogueWords.findingCodesSeeRtctraceRulesCode
        for c in FindingCode.allCases {
            o += "    " + c.rawValue.padded(40) + c.severity.rawValue.padded(9) + (c.rule.map { "[\($0)] " } ?? "") + c.title + "\n"
        }
        return o
    }

    /// One entry in full: title, summary, and how it shows in reports.
    package static func explain(_ entry: Entry) -> String {
        switch entry {
        case .rule(let r):
            var o = "\(r.rawValue): \(r.title)\n\(r.section)\n\n" + wrap(r.summary) + "\n"
            let codes = r.relatedCodes
            if !codes.isEmpty {
                o += "\nFinding codes:\n"
                for c in codes { o += "  " + c.rawValue + " (" + c.severity.rawValue + "): " + c.title + "\n" }
                o += "\nExample advice (\(codes[0].rawValue)):\n" + wrap(codes[0].exampleAdvice, indent: "  ") + "\n"
            }
            return o
        case .code(let c):
            var o = "\(c.rawValue): \(c.title)\nseverity: \(c.severity.rawValue)"
            if let r = c.rule { o += ", rule \(r.rawValue) (\(r.title))" }
            o += "\n\n" + wrap(c.summary) + "\n\nExample advice:\n" + wrap(c.exampleAdvice, indent: "  ") + "\n"
            o += CatalogueWords.verifiableByReplayExplainVerifyAdvice + wrap(proofWords(c.adviceProof), indent: "  ") + "\n"
            if let r = c.rule { o += CatalogueWords.seeAlso(r.rawValue) }
            return o
        }
    }

    /// Whether an advice can be checked by replay, and with which edits, in words.
    package static func proofWords(_ p: AdviceProof) -> String {
        switch p {
        case .notExpressible(let why): return "no: " + why + "."
        case .edits(let lists):
            let alternatives = lists.dropFirst().map { $0.map(words).joined(separator: ", then ") }
            return "yes: " + lists[0].map(words).joined(separator: ", then ")
                + (alternatives.isEmpty ? "" : "; alternative: " + alternatives.joined(separator: "; alternative: ")) + "."
        }
    }

    static func words(_ e: AdviceEdit) -> String {
        func kinds(_ ks: [RecordKind]) -> String { ks.map(\.rawValue).joined(separator: " or ") }
        switch e {
        case .setOption(let o): return CatalogueWords.addOptionEdit(o)
        case .mode(let m): return CatalogueWords.setModeEdit(m)
        case .moveAfterNext(let ks): return CatalogueWords.moveAfterEdit(kinds(ks))
        case .insertBefore(let j): return CatalogueWords.insertBeforeRecordEdit(j)
        case .insertBeforeNext(let ks, let j): return CatalogueWords.insertBeforeNextEdit(j, kinds(ks))
        case .insertAfterNext(let ks, let j): return CatalogueWords.insertAfterNextEdit(j, kinds(ks))
        case .replace(let j): return CatalogueWords.replaceEdit(j)
        case .reactivateAfterNext(let ks): return CatalogueWords.reactivateEdit(kinds(ks))
        }
    }

    /// The catalogue as JSON (`rtctrace rules --json`), or one entry.
    package static func json(_ entry: Entry?) -> String {
        var w = JSONWriter()
        func rule(_ r: RuleID) {
            w.beginObject()
            w.key("id"); w.string(r.rawValue)
            w.key("section"); w.string(r.section)
            w.key("title"); w.string(r.title)
            w.key("summary"); w.string(r.summary)
            w.endObject()
        }
        func code(_ c: FindingCode) {
            w.beginObject()
            w.key("code"); w.string(c.rawValue)
            w.key("severity"); w.string(c.severity.rawValue)
            w.key("rule"); w.string(c.rule?.rawValue)
            w.key("title"); w.string(c.title)
            w.key("summary"); w.string(c.summary)
            w.key("exampleAdvice"); w.string(c.exampleAdvice)
            w.key("adviceVerifiable"); w.bool(c.adviceProof.isVerifiable)
            w.key("adviceProof"); w.string(proofWords(c.adviceProof))
            w.endObject()
        }
        switch entry {
        case .rule(let r)?: rule(r)
        case .code(let c)?: code(c)
        case nil:
            w.beginObject()
            w.key("schema"); w.string("rtctrace.rules/1")
            w.key("rules"); w.beginArray(); for r in RuleID.allCases { rule(r) }; w.endArray()
            w.key("codes"); w.beginArray(); for c in FindingCode.allCases { code(c) }; w.endArray()
            w.endObject()
        }
        return w.string + "\n"
    }

    /// Wraps a paragraph at 100 columns.
    static func wrap(_ text: String, indent: String = "") -> String {
        var lines: [String] = []
        var line = indent
        for word in text.split(separator: " ") {
            if line.count > indent.count, line.count + word.count + 1 > 100 {
                lines.append(line)
                line = indent
            }
            line += (line.count > indent.count ? " " : "") + word
        }
        lines.append(line)
        return lines.joined(separator: "\n")
    }
}
