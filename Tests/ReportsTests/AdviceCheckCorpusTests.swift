import Analysis
import Contract
import Replay
import TestSupport
import TraceCodec
import TraceModel
import XCTest

/// Every advice of the golden corpus that the catalogue can express as edits, checked by replay: a
/// verified advice must make its item go away when its edits are replayed again, an advice that does not
/// apply must leave its item as it was, and the results pinned here must hold.
final class AdviceCheckCorpusTests: XCTestCase {
    /// The corpus: single traces and session folders.
    static func corpus() throws -> [(String, [String])] {
        let dir = Fixtures.root + "/traces"
        var out: [(String, [String])] = []
        for name in try FileManager.default.contentsOfDirectory(atPath: dir).sorted() where !name.hasSuffix(".golden.json") && name != "README.md" {
            let path = dir + "/" + name
            var isDir: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: path, isDirectory: &isDir)
            // A session's folder: its parts in part order (part-1, part-2, …).
            let parts = isDir.boolValue
                ? try FileManager.default.contentsOfDirectory(atPath: path).filter { !$0.hasSuffix(".golden.json") }.sorted().map { path + "/" + $0 }
                : [path]
            out.append((name, parts))
        }
        return out
    }

    /// Results pinned on golden traces: `trace seq subject` → verdict.
    static let pinned: [String: AdviceCheck.Verdict] = [
        "srtc-bluetooth-without-allowbluetooth.jsonl 6 session.missingAllowBluetooth": .verified,
        "srtc-bluetooth-without-allowbluetooth.jsonl 6 session.wrongMode": .verified,
        "srtc-default-speaker-without-option.jsonl 8 session.missingDefaultToSpeaker": .verified,
        "srtc-interruption-not-recovered.jsonl 18 interruption.notRecovered": .verified,
        "srtc-audio-module-left-disabled.jsonl 27 audioModule.leftDisabled": .verified,
        "srtc-bluetooth-blocks-speaker.jsonl 20 api.setRoute speaker": .notVerifiable,
        "srtc-callkit-activation-race.jsonl 7 callkit.activatedBeforeDidActivate": .doesNotApply,
        "srtc-v3-i10-ended-idle-no-retry.jsonl 4 interruption.neverRecovered": .doesNotApply,
        "srtc-deferred-call-outcomes.jsonl 3 api.setRoute speaker": .changedNotResolved,
    ]

    func test_eachCheckedAdviceHoldsWhenItsEditsAreReplayedAgain_andThePinnedResultsHold() throws {
        var seen: [String: AdviceCheck.Verdict] = [:]
        var verified = 0, notApplying = 0
        for (name, parts) in try Self.corpus() {
            let base = WhatIfBase.read(TraceSession(paths: parts))
            guard base.side.result.unexplainable == nil else { continue }
            for c in AdviceChecks.run(base) {
                seen["\(name) \(c.seq ?? -1) \(c.subject)"] = c.verdict
                let item = "\(name): \(c.subject) seq \(c.seq ?? -1)"
                func same(_ p: WhatIfProblem) -> Bool { p.kind == c.kind && p.seq == c.seq && (p.kind == .call || p.subject == c.subject) }
                switch c.verdict {
                case .verified, .alternativeVerified:
                    verified += 1
                    let w = try WhatIf.run(base, edits: c.edits)
                    XCTAssertTrue(w.resolved.contains(where: same), "\(item): reported verified, but its edits leave it unchanged")
                case .doesNotApply:
                    notApplying += 1
                    let w = try WhatIf.run(base, edits: c.edits)
                    XCTAssertFalse(w.resolved.contains(where: same), "\(item): reported as not applying, but its edits make it go")
                    let still = try XCTUnwrap(w.remaining.first(where: same), item)
                    XCTAssertEqual(still.before, still.after, "\(item): reported as not applying, but its edits change it")
                    XCTAssertNotNil(c.rule, "\(item): the rule that still decides is named")
                case .changedNotResolved:
                    let w = try WhatIf.run(base, edits: c.edits)
                    XCTAssertFalse(w.resolved.contains(where: same), item)
                    XCTAssertNotNil(w.remaining.first(where: same), item)
                case .cannotPlace, .notVerifiable:
                    XCTAssertEqual(c.edits, [], item)
                }
            }
        }
        for (key, verdict) in Self.pinned { XCTAssertEqual(seen[key], verdict, key) }
        XCTAssertGreaterThan(verified, 10, "the corpus verifies advice")
        XCTAssertGreaterThan(notApplying, 0, "the corpus has advice that does not apply")
    }

    /// `rules CODE` tells whether the advice can be checked: every code and cause has a proof or a reason.
    func test_everyCodeAndCauseSaysWhetherItsAdviceIsVerifiable() {
        for code in FindingCode.allCases {
            switch code.adviceProof {
            case .edits(let lists): XCTAssertFalse(lists.isEmpty || lists.contains { $0.isEmpty }, code.rawValue)
            case .notExpressible(let why): XCTAssertFalse(why.isEmpty, code.rawValue)
            }
        }
        for cause in VerdictCause.allCases {
            if case .notExpressible(let why) = cause.adviceProof { XCTAssertFalse(why.isEmpty, cause.rawValue) }
        }
    }
}
