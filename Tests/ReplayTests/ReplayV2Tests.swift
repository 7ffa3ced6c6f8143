import Analysis
import Contract
import Replay
import Reports
import TestSupport
import TraceModel
import XCTest

/// Contract v2 at replay level: outcomes attached to verdicts (V2), why a prediction was what it was (X4),
/// R12's explanation of a divergence (X3), and the audio module disabled while someone speaks (a state).
final class ReplayV2Tests: XCTestCase {
    private let voice = SessionActivation(ok: true, category: "playAndRecord", mode: "voiceChat",
                                          options: ["defaultToSpeaker", "allowBluetooth"])

    /// SMeeting: defaultAudioRoute = .speaker before entering, then a category change 50 ms after the SDK's
    /// own activation puts the device on the receiver.
    private func defaultBeforeEnter() -> (TraceBuilder, call: Int, enter: Int) {
        var b = TraceBuilder(.smeeting)
        let call = b.add(400, .setDefaultRoute(target: .speaker))
        let enter = b.add(1500, .enterMeeting(room: "r"))
        b.add(1535, .micPermission(status: .granted))
        b.add(1560, .sessionActivated(voice))
        b.add(1575, .routeChanged(route: .speaker, previousRoute: .speaker, reason: .categoryChange))
        b.add(1610, .routeChanged(route: .receiver, previousRoute: .speaker, reason: .categoryChange))
        b.add(6000, .routeSnapshot(route: .receiver, ports: ["Receiver"]))
        return (b, call, enter)
    }

    func test_V2_aDeferredCallAppliedAtTheEngagementTookEffectLate() {
        var (b, call, enter) = defaultBeforeEnter()
        b.add(6000, .expect(Expectation(.outcome(ref: call, outcome: .applied, cause: nil, by: .seq(enter)), rule: .V2)))
        b.add(6000, .expect(Expectation(.outcome(ref: call, outcome: .applied, cause: nil, by: Expectation.RecordRef.none))))
        let r = b.replay()
        XCTAssertEqual(r.expectations.map(\.passed), [true, false])
        XCTAssertEqual(r.expectations[1].actual, "applied by seq \(enter)")
        XCTAssertEqual(r.verdicts.first?.verdict, .deferred)
        XCTAssertEqual(r.verdicts.first?.outcome, Outcome(kind: .applied, t: 1500, seq: enter))
        XCTAssertEqual(r.verdicts.first?.lateEffect, LateEffect(delayMs: 1100, seq: enter))
        XCTAssertEqual(r.notTakingEffectCount, 0, "the summary never contradicts the body")
        XCTAssertEqual(r.notTakingEffect, [])
        XCTAssertEqual(r.tookEffectLate.map(\.seq), [call])
        let info = r.findings.first { $0.code == .routeIneffective }
        XCTAssertEqual(info?.severity, .info)
        XCTAssertFalse(info?.message.contains("later") ?? true, "the finding is the engine's, as it was made: \(info?.message ?? "")")
        XCTAssertEqual(r.verdicts.first?.finding.map { r.findings[$0] }, info, "the replay links the verdict to its finding")
        let late = Explanation(r).lateCalls.first?.lines.first { $0.label == "outcome" }?.text ?? ""
        XCTAssertTrue(late.hasPrefix("applied 1.100s later by seq \(enter) api.enterMeeting"), late)
        XCTAssertFalse(info?.advice.contains("set defaultAudioRoute instead") ?? true, "setting the default first is the documented way")
        XCTAssertEqual(r.findingCounts[.sessionChangedByOtherComponent], nil, "the SDK's own activation accounts for the change (R12)")
    }

    func test_X4_theDivergenceNamesTheDefaultAndTheEngagementThatAppliedIt() {
        var (b, call, enter) = defaultBeforeEnter()
        b.add(6000, .expect(Expectation(.predictedBy(ref: 0, rule: .R2, seq: .seq(call), appliedBy: .seq(enter), explanation: nil))))
        b.add(6000, .expect(Expectation(.predictedBy(ref: 0, rule: .R11, seq: nil, appliedBy: nil, explanation: nil))))
        b.add(6000, .expect(Expectation(.predictedBy(ref: 1, rule: .R2, seq: nil, appliedBy: nil, explanation: nil))))
        let r = b.replay()
        XCTAssertEqual(r.divergences.count, 1)
        XCTAssertEqual(r.divergences[0].predictedBy, PredictionSource(rule: .R2, seq: call, appliedBy: enter))
        XCTAssertFalse(r.divergences[0].explained, "nothing recorded explains it")
        XCTAssertEqual(r.expectations.map(\.passed), [true, false, false])
        XCTAssertEqual(r.expectations[0].rule, .X4)
        XCTAssertEqual(r.expectations[1].actual, "R2")
        XCTAssertEqual(r.expectations[2].actual, "no divergence 1 (1 so far)")
        let text = ExplainText.render(r)
        XCTAssertTrue(text.contains("prediction set by: R2"), text)
        XCTAssertTrue(text.contains("seq \(call) api.setDefaultRoute") && text.contains("applied by seq \(enter) api.enterMeeting"), text)
        XCTAssertFalse(text.contains("Calls that did not take effect"), text)
        XCTAssertTrue(text.contains("Calls that took effect late"), text)
        XCTAssertTrue(text.contains("0 of 1 call did not take effect"), text)
        XCTAssertTrue(text.contains("UNEXPLAINED"), text)
        let json = ExplainJSON.render(r)
        XCTAssertTrue(json.contains(#""predictedBy":{"rule":"R2","seq":\#(call),"appliedBy":\#(enter)}"#), json)
        XCTAssertTrue(json.contains(#""outcome":{"outcome":"applied","cause":null,"t":1500,"seq":\#(enter)}"#), json)
    }

    func test_V2_supersededAndPendingAreListedAsNotTakingEffect_withWhatBecameOfThem() {
        var b = TraceBuilder(.srtc)
        let first = b.add(100, .setRoute(target: .speaker, api: "setAudioRoute(.speaker)"))
        let second = b.add(200, .setRoute(target: .earpiece, api: "setAudioRoute(.earpiece)"))
        b.add(300, .sdkLog(level: "info", message: "never joins"))
        let r = b.replay()
        XCTAssertEqual(r.verdicts.map { $0.outcome?.kind }, [.superseded, .pending])
        XCTAssertEqual(r.verdicts[0].outcome?.seq, second)
        XCTAssertEqual(r.notTakingEffectCounts, [OutcomeKey(kind: .superseded, cause: nil): 1,
                                                 OutcomeKey(kind: .pending, cause: .notEngaged): 1])
        XCTAssertEqual(r.notTakingEffect.map(\.seq), [first, second])
        let text = ExplainText.render(r)
        XCTAssertTrue(text.contains("2 of 2 calls did not take effect"), text)
        XCTAssertTrue(text.contains("outcome: superseded by seq \(second) api.setRoute"), text)
        XCTAssertTrue(text.contains("outcome: still pending when the trace ended"), text)
        XCTAssertTrue(text.contains("superseded: a later call changed the same setting"), text)
        let json = ExplainJSON.render(r)
        XCTAssertTrue(json.contains(#""byOutcome":{"pending":1,"superseded":1}"#), json)
    }

    func test_R12_aChangeByAnotherComponentExplainsTheDivergenceItStarts_notOneAlreadyOpen() {
        var b = TraceBuilder(.smeeting)
        b.add(1000, .enterMeeting(room: "r"))
        b.add(1060, .sessionActivated(voice))
        b.add(1075, .routeChanged(route: .receiver, previousRoute: .speaker, reason: .categoryChange))
        let tap = b.add(5000, .setRoute(target: .speaker, api: "setSpeakerOutputEnabled(true)"))
        b.add(5030, .routeChanged(route: .speaker, previousRoute: .receiver, reason: .override))
        let other = b.add(20000, .routeChanged(route: .receiver, previousRoute: .speaker, reason: .categoryChange))
        b.add(24000, .routeChanged(route: .receiver, previousRoute: .receiver, reason: .categoryChange))
        b.add(28000, .sessionActivated(voice))
        b.add(28040, .routeChanged(route: .speaker, previousRoute: .receiver, reason: .override))
        // Inside an unexplained divergence, another component's change neither starts nor explains one.
        b.add(40000, .deviceConnected(id: "bt", kind: .bluetooth, name: "AirPods", port: "BluetoothHFP"))
        b.add(42000, .routeChanged(route: .speaker, previousRoute: .speaker, reason: .override))
        b.add(45000, .deviceDisconnected(id: "bt"))
        let r = b.replay()
        XCTAssertEqual(r.findingCounts[.sessionChangedByOtherComponent], 3)
        XCTAssertEqual(r.divergences.count, 2)
        XCTAssertEqual(r.divergences[0].explainedBy, .sessionChangedByOtherComponent)
        XCTAssertEqual(r.divergences[0].explainedBySeq, other)
        XCTAssertEqual(r.divergences[0].startSeq, other)
        XCTAssertEqual(r.divergences[0].predictedBy, PredictionSource(rule: .R2, seq: tap))
        XCTAssertEqual([r.divergences[0].start, r.divergences[0].end], [20000, 28040])
        XCTAssertNil(r.divergences[1].explainedBy)
        XCTAssertEqual(r.divergences[1].predictedBy?.rule, .R4)
        XCTAssertEqual(r.findings.first { $0.code == .sessionChangedByOtherComponent }?.seqs, [other])
        XCTAssertTrue(r.findings.first { $0.code == .sessionChangedByOtherComponent }?.advice
            .contains("setCategory, setMode or overrideOutputAudioPort") ?? false)
    }

    func test_R9_disabledWhileSpeaking_isRaisedAtTheSpeakerUpdateOncePerDisabledPeriod() {
        var b = TraceBuilder(.smeeting)
        b.add(100, .enterMeeting(room: "r"))
        b.add(200, .connState(state: .connected))
        let off = b.add(1000, .setAudioModuleEnabled(enabled: false))
        let talk = b.add(2000, .speakers(speaking: [Speaker(uid: "m2", trackId: "mic", level: 0.4)], stopped: []))
        b.add(3000, .speakers(speaking: [Speaker(uid: "m3", trackId: "mic", level: 0.6)], stopped: []))
        b.add(3500, .setAudioModuleEnabled(enabled: false))
        b.add(4000, .setAudioModuleEnabled(enabled: true))
        let again = b.add(5000, .setAudioModuleEnabled(enabled: false))
        b.add(5900, .exitMeeting)
        b.add(6000, .enterMeeting(room: "r"))                    // an engagement re-enables it: the period ends (R19: not while engaged)
        let third = b.add(7000, .setAudioModuleEnabled(enabled: false))
        let r = b.replay()
        let found = r.findings.filter { $0.code == .audioModuleDisabledWhileSpeaking }
        XCTAssertEqual(found.map(\.seqs), [[talk, off], [again], [third]])
        XCTAssertTrue(found[0].message.contains("member was speaking (m2, from seq \(talk))"), found[0].message)
        XCTAssertTrue(found[1].message.hasPrefix("setAudioModuleEnabled(false) stopped call audio while 2 members were speaking"))
    }

    func test_X2_theTrackerIsAReducer_countedClosedAndItsFinding() {
        var tracker = DivergenceTrackerProbe()
        let outputs = tracker.run()
        XCTAssertEqual(outputs, ["counted 1000", "finding route.divergence X2", "closed 1000-1600"])
    }
}

/// Drives a replay and names what the divergence tracker's outputs became: the timeline's note when an
/// interval counts, its finding, and the closed interval in the result.
private struct DivergenceTrackerProbe {
    mutating func run() -> [String] {
        var b = TraceBuilder(.srtc)
        b.add(100, .joinChannel(channel: "c"))
        b.add(150, .routeChanged(route: .receiver, previousRoute: .speaker, reason: .categoryChange))
        b.add(1000, .setRoute(target: .speaker, api: nil))
        b.add(1600, .routeChanged(route: .speaker, previousRoute: .receiver, reason: .override))
        var notes: [String] = []
        let replayer = Replayer(file: "<memory>")
        replayer.observer = { step in
            for case .divergenceCounted(let start) in step.events { notes.append("counted \(start)") }
            notes += step.findings.filter { $0.code == .routeDivergence }.map { "finding \($0.code) \($0.rule!)" }
        }
        for r in b.records { replayer.feed(r) }
        notes += replayer.finish().divergences.map { "closed \($0.start)-\($0.end)" }
        return notes
    }
}

/// X2: a divergence counts at the moment it has lasted longer than the tolerance, not at whatever
/// record comes next, so an expectation placed in between changes nothing the replay reports.
final class DivergenceMomentTests: XCTestCase {
    func test_X2_aDivergenceCountsAtTheToleranceWhateverRecordComesNext() {
        func trace(expectAt: Int64?) -> [Record] {
            var b = TraceBuilder(.srtc)
            b.add(100, .joinChannel(channel: "c"))
            b.add(150, .routeChanged(route: .receiver, previousRoute: .speaker, reason: .categoryChange))
            b.add(1000, .setRoute(target: .speaker, api: nil))
            if let t = expectAt { b.add(t, .expect(Expectation(.divergences(count: 1)))) }
            b.add(4000, .routeChanged(route: .speaker, previousRoute: .receiver, reason: .override))
            return b.records
        }
        let plain = Replay.run(records: trace(expectAt: nil))
        let probed = Replay.run(records: trace(expectAt: 1800))
        XCTAssertEqual(plain.findings.first { $0.code == .routeDivergence }?.t, 1501, "start 1000 + tolerance 500 + 1 ms")
        XCTAssertEqual(plain.findings, probed.findings)
        XCTAssertEqual(plain.divergences, probed.divergences)
        XCTAssertEqual(probed.failedExpectations.count, 0)
    }
}

/// A divergence cites the record that set the actual route, not a later re-reading of it.
final class ActualRouteCitationTests: XCTestCase {
    func test_X2_theActualRouteIsCitedFromTheChangeThatSetIt() {
        var b = TraceBuilder(.srtc)
        b.add(100, .joinChannel(channel: "c"))
        let change = b.add(150, .routeChanged(route: .receiver, previousRoute: .speaker, reason: .categoryChange))
        b.add(1000, .setRoute(target: .speaker, api: nil))
        b.add(1200, .routeSnapshot(route: .receiver, ports: ["Receiver"]))
        b.add(4000, .routeSnapshot(route: .receiver, ports: ["Receiver"]))
        let r = b.replay()
        XCTAssertEqual(r.divergences.count, 1)
        XCTAssertEqual(r.divergences.first?.actualSeq, change)
    }
}
