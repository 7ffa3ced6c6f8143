import Analysis
import Replay

/// The page's anchors: which element carries `id="seq-N"` for a record a reader may link to
/// (`report.html#seq-381`). The first element about that record claims it, in this order: a call's
/// card, a divergence's card, a finding group's card, then the markers and marks drawn on the
/// timeline, so a link lands on the explanation when there is one. The page's script then highlights
/// every marker about that record, zooms the timeline to them and shows the explanation; without the
/// script the browser still scrolls to it and the style sheet highlights it.
struct Anchors {
    private var owner: [Int: String] = [:]

    /// Lets `key` claim `seq` unless an earlier element has.
    mutating func claim(_ seq: Int?, _ key: String) {
        guard let seq, owner[seq] == nil else { return }
        owner[seq] = key
    }

    /// `seq-N` when the element `key` owns the anchor of `seq`.
    func id(_ seq: Int?, _ key: String) -> String? {
        guard let seq, owner[seq] == key else { return nil }
        return "seq-\(seq)"
    }

    /// Whether some element carries `seq-N`.
    func has(_ seq: Int) -> Bool { owner[seq] != nil }

    /// `id="seq-N" ` for the element `key` when it owns the anchor, else nothing.
    func attribute(_ seq: Int?, _ key: String) -> String {
        id(seq, key).map { "id=\"\($0)\" " } ?? ""
    }

    /// The invisible first child a card gets when it owns the anchor (its own id is the item's).
    func span(_ seq: Int?, _ key: String) -> String {
        id(seq, key).map { "<span class=\"anchor\" id=\"\($0)\"></span>" } ?? ""
    }

    /// The record a divergence is about: the one at which it started, else the actual route's, else the prediction's.
    static func seq(of d: Divergence) -> Int? { d.startSeq ?? d.actualSeq ?? d.predictedSeq }

    /// Every claim, in the order above, for the items the page lists and the markers it draws.
    static func make(_ r: ReplayResult, _ e: Explanation, _ lanes: [Lane]) -> Anchors {
        var a = Anchors()
        for c in e.calls + e.lateCalls { a.claim(c.verdict.seq, "item-v-\(c.verdict.seq)") }
        for (i, d) in e.divergences.enumerated() { a.claim(seq(of: d.divergence), "item-d-\(i)") }
        for g in e.groups.prefix(HTMLReport.listCap) { a.claim(g.first.seqs.first, "item-f-\(g.firstIndex)") }
        for v in TimelineSVG.chosenVerdicts(r) { a.claim(v.seq, "m-v-\(v.seq)") }
        for (i, f) in TimelineSVG.chosenFindings(r) { a.claim(f.seqs.first, "m-f-\(i)") }
        for lane in lanes where !lane.marks.isEmpty {
            for (i, m) in TimelineSVG.drawnMarks(lane).enumerated() { a.claim(m.seq, "k-\(lane.id)-\(i)") }
        }
        return a
    }

    /// Escaped text with each `seq N` that has an anchor on the page, other than `own` (the item's
    /// own record), turned into a link to it (`text` is already escaped; digits and the word are never markup).
    func linked(_ text: String, except own: Int? = nil) -> String {
        guard text.contains("seq ") else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count + 32)
        var rest = Substring(text)
        while let r = rest.firstRange(of: "seq ") {
            out += rest[..<r.lowerBound]
            let digits = rest[r.upperBound...].prefix { $0.isASCII && $0.isNumber }
            if let n = Int(digits), n != own, has(n), !(out.last?.isLetter ?? false) {
                out += "<a class=\"seqlink\" href=\"#seq-\(n)\">seq \(digits)</a>"
            } else {
                out += "seq " + digits
            }
            rest = rest[r.upperBound...].dropFirst(digits.count)
        }
        out += rest
        return out
    }
}
