import Foundation
import Replay
import Reports
import TestSupport
import TraceCodec
import TraceModel
import XCTest

final class HTMLReportTests: XCTestCase {
    func test_V1_bluetoothBlocksSpeaker_reportShowsCallCauseAndAdviceNextToRouteLanes() throws {
        let (r, lanes) = try Fixtures.replayWithLanes(Fixtures.trace("srtc-bluetooth-blocks-speaker.jsonl"))
        let html = HTMLReport.render(r, lanes: lanes)
        // The timeline and, beside it (same row), the call that did not take effect with cause and advice.
        let row = try XCTUnwrap(html.range(of: "<div class=\"timeline-row\">"))
        let aside = try XCTUnwrap(html.range(of: "<aside id=\"calls\" class=\"calls\">"))
        XCTAssertLessThan(row.lowerBound, aside.lowerBound)
        let card = String(html[aside.lowerBound...].prefix(3000))
        XCTAssertTrue(card.contains("seq 20 at 9.000s  api.setRoute setSpeakerOutputPreferred(true) → ineffective (externalRouteActive) [V1]"))
        XCTAssertTrue(card.contains("<b>why</b>: setSpeakerOutputPreferred(true) (seq 20) was ineffective (cause: externalRouteActive): a bluetooth device (&quot;AirPods Pro&quot;) had the route, and iOS does not let an app take the output back from it (seq 13)"), card)
        XCTAssertTrue(card.contains("<b>cause record</b>: seq 13 os.deviceConnected at 4.200s (bluetooth &quot;AirPods Pro&quot;)"))
        XCTAssertTrue(card.contains("<b>advice</b>: Grey out the speaker button"))
        // The marker on the timeline carries the same explanation, and links to the card.
        XCTAssertTrue(html.contains("id=\"m-v-20\" class=\"marker verdict v-ineffective\" data-item=\"item-v-20\""))
        XCTAssertTrue(html.contains("seq 20 ineffective (externalRouteActive)</text>"), "callout label next to the route lanes")
        for id in ReportLanes.order + ["calls", "findings"] { XCTAssertTrue(html.contains("data-lane=\"\(id)\""), id) }
        // The call's finding is told with the call: its marker links to the call's card.
        XCTAssertTrue(html.contains("id=\"m-f-0\" class=\"marker finding s-warning\" data-item=\"item-v-20\""))
        // The explain summary, in the SRTC words.
        XCTAssertTrue(html.contains("<li>1 of 1 call did not take effect</li>"))
        XCTAssertTrue(html.contains(">channel</text>"))
        XCTAssertFalse(html.contains(">meeting</text>"))
        // The route lanes: bluetooth from the connection, predicted and actual.
        let predicted = try XCTUnwrap(lanes.first { $0.id == "predicted" })
        // Nothing is predicted before the engagement and after the leave (R13).
        XCTAssertEqual(predicted.segments.map(\.value), ["no prediction", "receiver", "bluetooth", "speaker", "no prediction"])
        let devices = try XCTUnwrap(lanes.first { $0.id == "devices" })
        XCTAssertEqual(devices.segments.map(\.value), ["none", "bluetooth \"AirPods Pro\"", "none"])
    }

    /// "Every call took effect" is said only of a replay that judged every call on a known state: a lone
    /// part without its checkpoint and a session missing a part get no such all-clear.
    func test_noAllClearForTheCallsOfAPartialReplay() throws {
        func calls(_ r: ReplayResult, _ lanes: [Lane]) throws -> String {
            let html = HTMLReport.render(r, lanes: lanes)
            let aside = try XCTUnwrap(html.range(of: "<aside id=\"calls\" class=\"calls\">"))
            return String(html[aside.lowerBound...].prefix { $0 != "\u{0}" }.components(separatedBy: "</aside>")[0])
        }
        let (lone, loneLanes) = try Fixtures.replayWithLanes(Fixtures.trace("smeeting-session-part-without-checkpoint.jsonl"))
        let loneCalls = try calls(lone, loneLanes)
        XCTAssertFalse(loneCalls.contains("Every call took effect"), loneCalls)
        XCTAssertTrue(loneCalls.contains("1 call is undetermined"), loneCalls)
        let folder = Fixtures.trace("smeeting-session-missing-part")
        let lanes = ReportLanes()
        let gap = try Replay.run(TraceSession(paths: [folder + "/part-1.jsonl", folder + "/part-3.jsonl"]), unopened: .isAProblem, observer: lanes.observe)
        let gapCalls = try calls(gap, lanes.lanes(for: gap))
        XCTAssertFalse(gapCalls.contains("Every call took effect"), gapCalls)
        let (whole, wholeLanes) = try Fixtures.replayWithLanes(Fixtures.trace("srtc-session-missing-notify-others.jsonl"))
        XCTAssertTrue(try calls(whole, wholeLanes).contains("Every call took effect as the contract predicts."))
    }

    func test_report_isSelfContained_andDeterministic() throws {
        for name in ["srtc-bluetooth-blocks-speaker.jsonl", "smeeting-field-service-10min.jsonl.zst"] {
            let (r, lanes) = try Fixtures.replayWithLanes(Fixtures.trace(name))
            let a = HTMLReport.render(r, lanes: lanes)
            let (r2, lanes2) = try Fixtures.replayWithLanes(Fixtures.trace(name))
            XCTAssertEqual(a, HTMLReport.render(r2, lanes: lanes2), name)
            for external in ["<link", "src=", "@import", "http://", "https://", "href=\"/", "href=\"file"] {
                XCTAssertFalse(a.contains(external), "the report must load nothing: found \(external) in \(name)")
            }
            // url(…) only ever names something in the page (a clip, the no-data hatching).
            XCTAssertEqual(a.components(separatedBy: "url(").count, a.components(separatedBy: "url(#").count, name)
            XCTAssertEqual(a.components(separatedBy: "<script").count - 1, 1, "exactly one (inline) script")
            XCTAssertTrue(a.contains("@media print"))
        }
    }

    func test_report_escapesEveryTraceString() throws {
        let evil = "<script>alert('x')</script>"
        let recs = Fixtures.records(bundleId: "com.evil\"><img onerror=alert(1)>", [
            (1000, .joinChannel(channel: "<b>chan</b>")), (1050, .micPermission(status: .granted)), (1060, Fixtures.callSession),
            (2000, .deviceConnected(id: "bt\"><svg onload=alert(2)>", kind: .bluetooth, name: evil, port: "BluetoothHFP")),
            (2050, .routeChanged(route: .bluetooth, previousRoute: .receiver, reason: .newDeviceAvailable)),
            (3000, .setRoute(target: .speaker, api: "setAudioRoute(.speaker)</title><script>alert(3)</script>")),
            (3500, .sdkLog(level: "info", message: evil)),
            (3600, .sessionActivated(SessionActivation(ok: false, error: evil, category: "<i>cat</i>", mode: "\"mode\"", options: ["<o>"]))),
            (3700, .callKit(event: .unlisted("<ck>"), callId: "'id'\"><svg onload=alert(4)>")),
            (3800, .sdkError(api: "<api>", error: evil)), (3900, .interruptionBegan(cause: .unlisted("<cause>"), wasSuspended: true)),
            (3950, .sessionDeactivated(notifyOthers: true, ok: false, error: "<deact>")),
            (4000, .speakers(speaking: [Speaker(uid: "<u>&", trackId: "'t'", level: 0.4)], stopped: [])),
            (9000, .leaveChannel),
        ])
        let dir = Fixtures.tempDir()
        let path = dir + "/evil<script>.trace.zst"
        try Fixtures.write(recs, path)
        let (r, lanes) = try Fixtures.replayWithLanes(path)
        let html = HTMLReport.render(r, lanes: lanes)
        XCTAssertEqual(html.components(separatedBy: "<script").count - 1, 1, "only the report's own script tag")
        for raw in ["<img", "<svg onload", "<b>chan", "<u>&", "</title><script", "<i>cat", "<o>", "<ck>", "<api>", "<cause>", "<deact>", "'id'\""] {
            XCTAssertFalse(html.contains(raw), raw)
        }
        // The moments the new lanes draw carry that text, escaped.
        XCTAssertTrue(html.contains("CallKit: &lt;ck&gt; &#39;id&#39;&quot;&gt;&lt;svg onload=alert(4)&gt;"), "the CallKit mark's tooltip")
        XCTAssertTrue(html.contains("SDK callbacks: error &lt;api&gt;: &lt;script&gt;"), "the SDK error mark's tooltip")
        XCTAssertTrue(html.contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;"), "the device name is shown, escaped")
        XCTAssertTrue(html.contains("&lt;u&gt;&amp;"))
    }

    func test_HTMLEscape_escapesMarkupQuotesAndControls() {
        XCTAssertEqual(HTMLEscape.text("a<b>&\"c'\u{1B}[31m\u{85}"), "a&lt;b&gt;&amp;&quot;c&#39;\u{FFFD}[31m\u{FFFD}")
        XCTAssertEqual(HTMLEscape.identifier("m-v-12\"><x"), "m-v-12___x")
    }

    func test_report_smeetingUsesMeetingWords() throws {
        let (r, lanes) = try Fixtures.replayWithLanes(Fixtures.trace("smeeting-bluetooth-blocks-speaker.jsonl"))
        let html = HTMLReport.render(r, lanes: lanes)
        XCTAssertTrue(html.contains("SMeeting trace report"))
        XCTAssertTrue(html.contains(">meeting</text>"))
        XCTAssertTrue(lanes.first { $0.id == "engagement" }!.segments.contains { $0.value == "entered" })
        XCTAssertFalse(html.contains(">channel</text>"))
    }

    func test_report_staysBoundedForManyChanges() throws {
        // 40 000 quality reports flipping level every report: lanes must merge, the page stay small.
        var bodies: [(Int64, RecordBody)] = [(500, .joinChannel(channel: "c")), (600, .connState(state: .connected))]
        for i in 0..<40_000 { bodies.append((1000 + Int64(i) * 50, Fixtures.report(i % 2 == 0 ? .poor : .good, i % 3 == 0 ? .lost : .good))) }
        let lanes = ReportLanes(maxSegments: 300)
        let replayer = Replayer(file: "many.jsonl")
        replayer.observer = lanes.observe
        for rec in Fixtures.records(bodies) { replayer.feed(rec) }
        let r = replayer.finish()
        let built = lanes.lanes(for: r)
        for lane in built {
            XCTAssertLessThanOrEqual(lane.segments.count, 300, lane.id)
            for (a, b) in zip(lane.segments, lane.segments.dropFirst()) { XCTAssertLessThanOrEqual(a.end, b.start + 0, lane.id) }
        }
        let pub = try XCTUnwrap(built.first { $0.id == "qualityPub" })
        XCTAssertTrue(pub.segments.contains { $0.merged > 1 })
        XCTAssertEqual(pub.segments.reduce(0) { $0 + $1.merged }, 40_001, "merged segments count every change")
        let html = HTMLReport.render(r, lanes: built)
        XCTAssertLessThan(html.utf8.count, 2_000_000)
    }

    /// A deferred call's marker is joined to where it took effect (V2).
    func test_V2_aDeferredCallIsJoinedToWhereItTookEffect() throws {
        let (r, lanes) = try Fixtures.replayWithLanes(Fixtures.trace("smeeting-default-speaker-before-enter.jsonl"))
        let html = HTMLReport.render(r, lanes: lanes)
        XCTAssertTrue(html.contains("<g class=\"outcome o-applied\"><title>seq 1: took effect 1.100s later (seq 5 api.enterMeeting"), html)
        XCTAssertTrue(html.contains("<h2>Calls that took effect late</h2>"))
    }
}
