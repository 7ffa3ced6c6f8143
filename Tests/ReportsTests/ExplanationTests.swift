import Analysis
import Contract
import Foundation
import Replay
import Reports
import TestSupport
import TraceCodec
import TraceModel
import XCTest

/// The one explanation every report renders: counts that match their lists, repeats told once, and
/// text that never denies what the device did.
final class ExplanationTests: XCTestCase {
    /// A flaky network: a reconnect the SDK does not reset its speaker cache at, then 48 mismatching
    /// snapshots. One group, naming the reconnect and Q4, advice once; the summary counts it right.
    func test_repeatedFindingsAreOneGroupNamingTheReconnect() {
        let alice = Speaker(uid: "alice", trackId: "mic", level: 0.6)
        var b: [(Int64, RecordBody)] = [
            (1000, .joinChannel(channel: "c")), (1100, .connState(state: .connected)),
            (2000, .speakers(speaking: [alice], stopped: [])), (2010, .sdkActiveSpeakers(speakers: [alice])),
            (3000, .connState(state: .reconnecting)), (4000, .connState(state: .connected)),
        ]
        for i in 0..<48 { b.append((Int64(5000 + 1000 * i), .sdkActiveSpeakers(speakers: [alice]))) }
        let r = Replay.run(records: Fixtures.records(b))
        XCTAssertEqual(r.findingCounts[.speakersMismatch], 48)
        let e = Explanation(r)
        XCTAssertEqual(e.groups.count, 1)
        let g = e.groups[0]
        XCTAssertEqual(g.count, 48)
        XCTAssertEqual(g.afterReconnect?.seq, 6)
        XCTAssertTrue(g.headline.contains("speakers.mismatch [S2] ×48 from 5.000s to 52.000s"), g.headline)
        XCTAssertTrue(g.lines.contains { $0.label == "after" && $0.text.contains("(Q4)") && $0.text.contains("seq 6") })
        XCTAssertEqual(g.lines.filter { $0.label == "advice" }.count, 1)
        let text = ExplainText().render(e)
        XCTAssertEqual(text.components(separatedBy: "advice:").count - 1, 1, "advice once, not 48 times")
        XCTAssertTrue(text.contains("findings: 0 errors, 48 warnings, 0 info (48 under Findings in 1 group)"), text)
        XCTAssertLessThan(text.split(separator: "\n").count, 40)
    }

    /// The summary counts what the lists below it show: no "3 warnings" above a list of one.
    func test_summaryCountsMatchTheLists() {
        let b: [(Int64, RecordBody)] = [
            (1000, .joinChannel(channel: "c")), (1035, .micPermission(status: .granted)),
            (1100, .deviceConnected(id: "bt", kind: .bluetooth, name: "Buds", port: "BluetoothHFP")),
            (2000, .setRoute(target: .speaker, api: nil)), (3000, .setRoute(target: .earpiece, api: nil)),
            (4000, .sessionDeactivated(notifyOthers: false, ok: nil, error: nil)),
        ]
        let e = Explanation(Replay.run(records: Fixtures.records(b)))
        XCTAssertEqual(e.calls.count, 2)
        XCTAssertEqual(e.groups.map(\.code), [.sessionMissingNotifyOthers])
        let findings = e.summary.first { $0.text.hasPrefix("findings:") }?.text ?? ""
        XCTAssertEqual(findings, "findings: 0 errors, 3 warnings, 0 info (2 with the calls, 1 under Findings in 1 group)")
        XCTAssertEqual(e.summary.first?.text, "2 of 2 calls did not take effect")
    }

    /// A session without allowBluetooth (in a mode that does not imply it): a headset is connected,
    /// but the device plays the receiver and the tap does switch to the speaker. The text says so,
    /// points to session.missingAllowBluetooth, and never says the headset has the route.
    func test_aConnectedButUnusedBluetoothDeviceIsToldAsItIs() {
        let session = RecordBody.sessionActivated(SessionActivation(ok: true, category: "playAndRecord", mode: "default", options: []))
        let b: [(Int64, RecordBody)] = [
            (1000, .joinChannel(channel: "c")), (1035, .micPermission(status: .granted)), (1060, session),
            (1075, .routeChanged(route: .receiver, previousRoute: .speaker, reason: .categoryChange)),
            (2000, .deviceConnected(id: "bt", kind: .bluetooth, name: "Buds", port: "BluetoothHFP")),
            (5000, .setRoute(target: .speaker, api: "setSpeakerOutputEnabled(true)")),
            (5050, .routeChanged(route: .speaker, previousRoute: .receiver, reason: .override)),
        ]
        let e = Explanation(Replay.run(records: Fixtures.records(b)))
        let call = e.calls.first { $0.verdict.seq == 6 }
        XCTAssertEqual(call?.verdict.cause, .externalRouteActive, "the verdict stays what the contract says")
        let text = call?.lines.map { ($0.label ?? "") + ": " + $0.text }.joined(separator: "\n") ?? ""
        XCTAssertTrue(text.contains("a bluetooth device (\"Buds\") is connected (seq 5), but the device is not using it: it played the receiver"), text)
        XCTAssertTrue(text.contains("the call did switch the route to the speaker"), text)
        XCTAssertTrue(text.contains("session.missingAllowBluetooth"), text)
        XCTAssertFalse(text.contains("has the route (seq"), text)
        XCTAssertFalse(text.contains("Grey out the speaker button"), text)
    }

    /// Text and HTML list the same findings in the same order.
    func test_textAndHTMLOrderFindingsTheSameWay() throws {
        let (r, lanes) = try Fixtures.replayWithLanes(Fixtures.trace("srtc-quality-spurious-and-missed.jsonl"))
        let e = Explanation(r)
        let text = ExplainText().render(e), html = HTMLReport.render(r, lanes: lanes)
        let codes = e.groups.map(\.code.rawValue)
        func order(_ s: String) -> [String] {
            codes.compactMap { c in s.range(of: c + " [").map { (c, $0.lowerBound) } }.sorted { $0.1 < $1.1 }.map(\.0)
        }
        let findingsText = String(text[(text.range(of: "Findings (")?.lowerBound ?? text.startIndex)...])
        let findingsHTML = String(html[(html.range(of: "<section id=\"findings\">")?.lowerBound ?? html.startIndex)...])
        XCTAssertEqual(codes.count, 2)
        XCTAssertEqual(order(findingsText), codes)
        XCTAssertEqual(order(findingsHTML), codes)
    }

    /// The summary never lists a call that did not take effect above "Nothing is wrong" (a deferred call
    /// superseded before the join, V2).
    func test_aCallThatDidNotTakeEffectIsNeverFollowedByNothingIsWrong() {
        let b: [(Int64, RecordBody)] = [(500, .setRoute(target: .speaker, api: nil)), (600, .setRoute(target: .earpiece, api: nil)),
                                         (1000, .joinChannel(channel: "c"))]
        let e = Explanation(Replay.run(records: Fixtures.records(b)))
        XCTAssertEqual(e.calls.count, 1, "the superseded call")
        let text = ExplainText().render(e)
        XCTAssertFalse(text.contains("Nothing is wrong"), text)
        XCTAssertTrue(text.contains("Needs attention"), text)
    }

    /// L4: a switchLayer accepted at the call (verdict `applied`) whose request failed to send is listed
    /// with what became of it: rejected, with its cause and the `sdk.error` that decided it.
    func test_L4_aSwitchLayerRejectedAfterTheCallSaysSoAndByWhichRecord() {
        let r = Replay.run(records: Fixtures.records([
            (900, .connEngine(vendor: .seaStart)), (1000, .joinChannel(channel: "c")), (1500, .connState(state: .connected)),
            (2000, .subscribe(pubUid: "u2", trackId: "v", layers: ["v-low", "v-high"])),
            (3000, .switchLayer(pubUid: "u2", trackId: "v", targetTrackId: "v-high")),
            (3050, .sdkError(api: "switchLayer(pubUid:trackId:targetTrackId:)", error: "webrtcError: send failed")),
        ]))
        let call = Explanation(r).calls.first { $0.verdict.call == .switchLayer }
        XCTAssertEqual(call?.verdict.verdict, .applied)
        let outcome = call?.lines.first { $0.label == "outcome" }?.text ?? ""
        XCTAssertTrue(outcome.hasPrefix("rejected (webrtcError) by seq 6 sdk.error at 3.050s"), outcome)
        XCTAssertTrue(outcome.hasSuffix("[V2]"), outcome)
        XCTAssertTrue(ExplainText.render(r).contains("outcome: rejected (webrtcError) by seq 6 sdk.error"), ExplainText.render(r))
    }

    /// The advice of a call is that of what became of it when that differs from its verdict: a request
    /// dropped by a leave is lost (not "nothing is lost"), a deferred request blocked by AirPods when it
    /// was applied gets the external device's advice (not the interruption's), a late one needs no fix.
    /// What is said to hold when the trace ended says "at the crash" when it ended torn: a divergence still
    /// open, a call still pending (its outcome and its advice).
    func test_whatHoldsAtATornEndHoldsAtTheCrash() throws {
        // A divergence open when the trace ends, and a call deferred before the join that never came.
        var open = TraceBuilder(.srtc)
        open.add(900, .setDefaultRoute(target: .speaker))
        open.add(1_000, .joinChannel(channel: "c"))
        open.add(1_100, .routeChanged(route: .receiver, previousRoute: .speaker, reason: .categoryChange))
        open.add(9_000, .routeSnapshot(route: .receiver, ports: ["Receiver"]))
        var pending = TraceBuilder(.srtc)
        pending.add(400, .setRoute(target: .speaker, api: nil))
        pending.add(9_000, .micPermission(status: .granted))
        for end in [TraceEnd.end, .crash] {
            func explained(_ b: TraceBuilder) -> String {
                let replayer = Replayer(file: "t")
                for r in b.records { replayer.feed(r) }
                let e = Explanation(replayer.finish(end: end))
                return (e.divergences.map(\.headline) + e.calls.flatMap { [$0.headline] + $0.lines.map(\.text) }).joined(separator: "\n")
            }
            let divergence = explained(open), call = explained(pending)
            XCTAssertTrue(divergence.contains("still open"), divergence)
            XCTAssertTrue(call.contains("still pending"), call)
            switch end {
            case .end:
                XCTAssertTrue(divergence.contains("(still open at the end of the trace)"), divergence)
                XCTAssertFalse((divergence + call).contains("crash"), divergence + call)
            case .crash:
                XCTAssertTrue(divergence.contains("(still open at the crash: the trace ends torn)"), divergence)
                XCTAssertFalse(divergence.contains("end of the trace"), divergence)
                XCTAssertTrue(call.contains("still pending when the trace ended at the crash (torn)"), call)
                XCTAssertTrue(call.contains("still waiting when the trace ended at the crash (torn)"), call)
                XCTAssertFalse(call.contains("when the trace ended,") || call.contains("when the trace ended ["), call)
            }
        }
    }

    func test_V2_eachOutcomeHasItsOwnAdvice() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
        let r = try Replay.run(TraceSession(path: root + "/traces/srtc-deferred-call-outcomes.jsonl"))
        let e = Explanation(r)
        let w = LayerWords(.srtc)
        var seen = Set<OutcomeKind>()
        for call in e.calls + e.lateCalls {
            let v = call.verdict
            let o = try XCTUnwrap(v.outcome)
            let advice = try XCTUnwrap(call.lines.first { $0.label == "advice" }?.text, call.headline)
            // Applied: by what applied it (seq 30, deferred by an interruption, took effect at the next join;
            // seq 58 at the interruption's end). Ineffective: for the route the call asked (seq 4, the earpiece).
            let appliedBy: AppliedBy? = o.kind == .applied ? (v.seq == 30 ? .engagement : .recovery) : nil
            let target: RouteTarget? = v.seq == 4 ? .earpiece : nil
            XCTAssertEqual(advice, o.kind.advice(verdictCause: v.cause, outcomeCause: o.cause, target: target, appliedBy: appliedBy, w),
                           call.headline)
            seen.insert(o.kind)
        }
        XCTAssertEqual(seen, [.superseded, .ineffective, .dropped, .pending, .applied], "the trace has every outcome")
        let dropped = try XCTUnwrap(e.calls.first { $0.verdict.outcome?.kind == .dropped })
        let advice = dropped.lines.first { $0.label == "advice" }?.text ?? ""
        XCTAssertFalse(advice.contains("Nothing is lost"), advice)
        XCTAssertTrue(advice.contains("left the channel before it took effect"), advice)
        let blocked = try XCTUnwrap(e.calls.first { $0.verdict.outcome?.kind == .ineffective })
        XCTAssertEqual(blocked.lines.first { $0.label == "advice" }?.text, VerdictCause.externalRouteActive.advice(w, target: .earpiece))
        // Every outcome's advice in each layer's words, and no other layer's.
        for kind in OutcomeKind.allCases {
            for cause in [VerdictCause?.none] + VerdictCause.allCases.map(Optional.some) {
                for target in [RouteTarget?.none, .speaker, .earpiece] {
                    for appliedBy in [AppliedBy?.none, .engagement, .recovery] {
                        let srtc = kind.advice(verdictCause: cause, outcomeCause: nil, target: target, appliedBy: appliedBy, LayerWords(.srtc))
                        // The signalling channel is the transport's, in both layers.
                        let meeting = kind.advice(verdictCause: cause, outcomeCause: nil, target: target, appliedBy: appliedBy, LayerWords(.smeeting))
                            .replacingOccurrences(of: "signalling channel", with: "")
                        for word in [" meeting", " enter", " exit", " member"] { XCTAssertFalse(srtc.contains(word), "\(kind) \(String(describing: cause)): \(srtc)") }
                        for word in [" channel", " join", " leave", " user"] { XCTAssertFalse(meeting.contains(word), "\(kind) \(String(describing: cause)): \(meeting)") }
                    }
                }
            }
        }
    }

    /// A deferred call's "applied" advice follows the record that applied it: a default deferred by an
    /// interruption and applied at the next joinChannel (seq 30) was told to refresh in the recovered
    /// callback, which had nothing to do with it; one applied at the interruption's end (seq 58) is.
    func test_anAppliedCallsAdviceFollowsWhatAppliedIt() throws {
        let r = try Replay.run(TraceSession(path: Fixtures.trace("srtc-deferred-call-outcomes.jsonl")))
        let e = Explanation(r)
        func advice(_ seq: Int) throws -> String {
            let call = try XCTUnwrap(e.lateCalls.first { $0.verdict.seq == seq }, "seq \(seq)")
            return try XCTUnwrap(call.lines.first { $0.label == "advice" }?.text)
        }
        let atJoin = try advice(30)
        XCTAssertEqual(e.lateCalls.first { $0.verdict.seq == 30 }?.verdict.cause, .interrupted)
        XCTAssertTrue(atJoin.contains("waited until the app joined the channel"), atJoin)
        XCTAssertFalse(atJoin.contains("audioRouteSessionDidRecoverFromInterruption") || atJoin.contains("interruption"), atJoin)
        let atRecovery = try advice(58)
        XCTAssertTrue(atRecovery.contains("waited out the interruption") && atRecovery.contains("audioRouteSessionDidRecoverFromInterruption"), atRecovery)
    }

    /// An external device blocks the earpiece as it blocks the speaker (R4): an earpiece request blocked by a
    /// headset was told to "Grey out the speaker button"; the advice names the route the call asked for, in
    /// every report, and without a call (the engine's finding alone) names both.
    func test_externalDeviceAdviceNamesTheRouteAsked() throws {
        let w = LayerWords(.srtc)
        let earpiece = VerdictCause.externalRouteActive.advice(w, target: .earpiece)
        XCTAssertTrue(earpiece.hasPrefix("Grey out the earpiece button while currentRoute.isExternal is true"), earpiece)
        XCTAssertFalse(earpiece.contains("speaker"), earpiece)
        XCTAssertTrue(VerdictCause.externalRouteActive.advice(w, target: .speaker).hasPrefix("Grey out the speaker button"))
        XCTAssertTrue(VerdictCause.externalRouteActive.advice(w).hasPrefix("Grey out the speaker and earpiece buttons"))
        // Blocked at the call (a verdict ineffective), through the call's own finding.
        let r = try Replay.run(TraceSession(path: Fixtures.trace("srtc-v3-r14-port-sets-kind.jsonl")))
        let v = try XCTUnwrap(r.verdicts.first { $0.seq == 15 })
        XCTAssertEqual(v.verdict, .ineffective)
        XCTAssertEqual(v.cause, .externalRouteActive)
        XCTAssertEqual(r.recordIndex[15]?.target, .earpiece)
        let card = try XCTUnwrap(Explanation(r).calls.first { $0.verdict.seq == 15 })
        XCTAssertEqual(card.lines.first { $0.label == "advice" }?.text, earpiece)
        XCTAssertEqual(Explanation.advice(for: v, r), earpiece)
        // The speaker button where the speaker was asked for.
        let speaker = try Replay.run(TraceSession(path: Fixtures.trace("srtc-bluetooth-blocks-speaker.jsonl")))
        XCTAssertEqual(speaker.verdicts.first.flatMap { Explanation.advice(for: $0, speaker) }, VerdictCause.externalRouteActive.advice(w, target: .speaker))
    }

    /// A finding that explains a call is told with the call's advice (the last call it explains), any other
    /// with its own; and the groups are the same whether the report hands its finding advice in or not.
    func test_findingAdviceIsTheLinkedCallsAndTheGroupsTheSameWithIt() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Fixtures.traces)
            .filter { $0.hasSuffix(".jsonl") }.sorted()
        var linked = 0
        for name in names {
            let r = try Replay.run(TraceSession(path: Fixtures.trace(name)))
            let advice = Explanation.FindingAdvice(r)
            for i in r.findings.indices {
                let call = r.verdicts.last { $0.finding == i }
                if call != nil { linked += 1 }
                XCTAssertEqual(advice.advice(i, r), call.flatMap { Explanation.advice(for: $0, r) } ?? r.findings[i].advice, name)
            }
            let plain = Explanation.findingGroups(r), handed = Explanation.findingGroups(r, advice: advice)
            XCTAssertEqual(plain.map(\.headline), handed.map(\.headline), name)
            XCTAssertEqual(plain.map(\.lines), handed.map(\.lines), name)
            XCTAssertEqual(plain.map(\.count), handed.map(\.count), name)
        }
        XCTAssertGreaterThan(linked, 0)
    }
}
