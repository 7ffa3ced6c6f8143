import Analysis
import Contract
import Foundation
import Replay
@testable import Reports
import TestSupport
import TraceModel
import XCTest

/// The report's lanes for what the contract reads, its palette, its anchors, its graphs and its size,
/// checked on the page's markup (the browser tests check them drawn).
final class ReportLanesTests: XCTestCase {
    /// An SRTC call with every moment the report's new lanes show: CallKit's answer, activation, hold
    /// and end, a failed and successful session activation, a Siri interruption that the app was
    /// suspended through, a media-services reset, the SDK's callbacks and an output-port call.
    static let moments: [(Int64, RecordBody)] = [
        (1000, .joinChannel(channel: "c")), (1010, .micPermission(status: .granted)),
        (1020, .callKit(event: .answer, callId: "call-1")), (1100, .callKit(event: .didActivate, callId: "call-1")),
        (1200, .sessionActivated(SessionActivation(ok: false, error: "isBusy", category: "playAndRecord", mode: "voiceChat"))),
        (1300, Fixtures.callSession), (1400, .connState(state: .connecting)), (1500, .connState(state: .connected)),
        (2000, .setRoute(target: .speaker, api: "setSpeakerOutputEnabled(true)")), (2010, .overrideOutput(port: .speaker)),
        (2020, .routeChanged(route: .speaker, previousRoute: .receiver, reason: .override)),
        (3000, .interruptionBegan(cause: .siri, wasSuspended: true)), (3050, .sdkInterrupted),
        (4000, .interruptionEnded(shouldResume: true)), (4100, Fixtures.callSession), (4150, .sdkRecovered),
        (5000, .mediaServicesReset), (5100, Fixtures.callSession), (5150, .sdkRecovered),
        (6000, .callKit(event: .hold, callId: "call-1")), (6010, .callKit(event: .didDeactivate, callId: "call-1")),
        (7000, .callKit(event: .unhold, callId: "call-1")), (7010, .callKit(event: .didActivate, callId: "call-1")),
        (8000, .sdkError(api: "switchLayer", error: "webrtcError: send failed")), (8100, .sdkCallStateChanged(state: .connected)),
        (9000, .sessionDeactivated(notifyOthers: true, ok: false, error: "isBusy")), (9500, .callKit(event: .end, callId: "call-1")),
        (9600, .leaveChannel), (9700, .sessionDeactivated(notifyOthers: true, ok: true, error: nil)),
    ]

    func replay(_ bodies: [(Int64, RecordBody)], layer: Layer = .srtc) throws -> (ReplayResult, [Lane], ReportLanes) {
        let collector = ReportLanes()
        let replayer = Replayer(file: "moments.jsonl")
        replayer.observer = collector.observe
        for rec in Fixtures.records(layer: layer, bodies) { replayer.feed(rec) }
        let r = replayer.finish()
        return (r, collector.lanes(for: r), collector)
    }

    func lane(_ lanes: [Lane], _ id: String) throws -> Lane { try XCTUnwrap(lanes.first { $0.id == id }, id) }

    func test_lanes_showEveryMomentTheContractReads_withOkOrError_causeAndCallback() throws {
        let (_, lanes, _) = try replay(Self.moments)
        for id in ["override", "session", "callKit", "resets", "qualityChanges", "sdk"] { XCTAssertNotNil(lanes.first { $0.id == id }, id) }

        let session = try lane(lanes, "session")
        XCTAssertEqual(session.marks.map(\.t), [1200, 1300, 4100, 5100, 9000, 9700])
        XCTAssertEqual(session.marks.map(\.tone), ["failed", "activated", "activated", "activated", "failed", "deactivated"])
        XCTAssertEqual(session.marks.map(\.what), Array(repeating: "obs.sessionActivated", count: 4) + Array(repeating: "obs.sessionDeactivated", count: 2))
        XCTAssertEqual(session.marks[0].value, "activation failed: isBusy (tried playAndRecord/voiceChat)")
        XCTAssertEqual(session.marks[1].value, "activated playAndRecord/voiceChat [allowBluetooth]")
        XCTAssertEqual(session.marks[4].value, "deactivation failed: isBusy")
        XCTAssertEqual(session.marks[5].value, "deactivated (notifyOthers)")
        XCTAssertEqual(session.segments.map(\.value), ["not active", "activated by CallKit (didActivate)", "playAndRecord/voiceChat", "not active",
                                                        "playAndRecord/voiceChat", "not active", "activated by CallKit (didActivate)", "not active"])
        XCTAssertEqual(session.segments.map(\.tone), ["quiet", "on", "on", "quiet", "on", "quiet", "on", "quiet"])

        let callKit = try lane(lanes, "callKit")
        XCTAssertEqual(callKit.marks.map(\.value), ["answer call-1", "didActivate call-1", "hold call-1", "didDeactivate call-1",
                                                     "unhold call-1", "didActivate call-1", "end call-1"])
        XCTAssertEqual(callKit.marks.map(\.tone), ["callkit", "activated", "callkit", "deactivated", "callkit", "activated", "callkit"])
        XCTAssertEqual(callKit.segments.map(\.value), ["no CallKit call", "answered, awaiting didActivate", "audio activated", "held",
                                                        "audio deactivated", "resumed, awaiting didActivate", "audio activated", "no CallKit call"])
        XCTAssertEqual(callKit.segments.map(\.tone), ["quiet", "on", "on", "alert", "alert", "on", "on", "quiet"])

        let resets = try lane(lanes, "resets")
        XCTAssertEqual(resets.kind, .marks)
        XCTAssertEqual(resets.marks.map { [String($0.t), $0.what, $0.tone] }, [["5000", "os.mediaServicesReset", "reset"]])

        // Interruptions with their cause: the Siri one was stale (wasSuspended: it had ended while the app was
        // suspended, I9), so it recovers at its own record and leaves no interrupted stretch; the reset (I5)
        // and the CallKit hold (I11, named so when the route engine interrupts at its didDeactivate) do.
        let interruption = try lane(lanes, "interruption")
        XCTAssertEqual(interruption.marks.map(\.value), ["began (siri, wasSuspended)", "ended (shouldResume true)"])
        let causes = interruption.segments.filter { $0.tone == "alert" }.map(\.value)
        XCTAssertEqual(Array(causes.prefix(2)), ["interrupted (media services reset)", "interrupted (CallKit hold)"])
        XCTAssertEqual(ReportLanes.interruptionWords(Record(seq: 1, t: 0, .callKit(event: .didDeactivate, callId: nil))), "interrupted (CallKit hold)")
        XCTAssertEqual(ReportLanes.interruptionWords(Record(seq: 1, t: 0, .interruptionBegan(cause: nil, wasSuspended: nil))), "interrupted (no cause)")

        let sdk = try lane(lanes, "sdk")
        XCTAssertEqual(sdk.marks.map(\.value), ["interrupted", "recovered", "recovered", "error switchLayer: webrtcError: send failed",
                                                 "call state connected"])
        XCTAssertEqual(sdk.marks.map(\.tone), ["sdkInterrupted", "sdkRecovered", "sdkRecovered", "failed", "sdkOther"])

        let override = try lane(lanes, "override")
        XCTAssertEqual(override.marks.map { [$0.value, $0.tone] }, [["overrideOutputAudioPort(.speaker)", "overridePort"]])
        XCTAssertEqual(override.segments.first { $0.start == 2000 }?.value, "speaker")
        // Every mark names its record.
        for l in lanes { for m in l.marks { XCTAssertNotNil(m.seq, "\(l.id): \(m)") } }
    }

    /// route.overrideFlushed (R15) is drawn on the override lane, where the flushed override shows,
    /// with an anchor to its finding.
    func test_R15_anOverrideFlushIsAMomentOnTheOverrideLane() throws {
        var (r, _, collector) = try replay(Self.moments)
        let flush = Finding(code: .routeOverrideFlushed, severity: .info, rule: .R15, seqs: [12], t: 3000,
                            message: "iOS flushed the override at the interruption", advice: "by design")
        r.findings.append(flush)
        r.findingCounts[.routeOverrideFlushed, default: 0] += 1
        let lanes = collector.lanes(for: r)
        let override = try lane(lanes, "override")
        let mark = try XCTUnwrap(override.marks.first { $0.tone == "flush" })
        XCTAssertEqual(mark.what, "route.overrideFlushed")
        XCTAssertEqual(mark.seq, 12)
        XCTAssertEqual(mark.t, 3000)
        XCTAssertEqual(override.marks.map(\.t), override.marks.map(\.t).sorted(), "in time order")
        let html = HTMLReport.render(r, lanes: lanes)
        XCTAssertTrue(html.contains("class=\"marker mark t-flush\" data-seq=\"12\""), "drawn")
        XCTAssertTrue(html.contains("id=\"seq-12\""), "and linkable")
    }

    /// Each colour stands for one meaning: the page's colours (`--t-NAME`) differ pairwise by a CIE76
    /// ΔE of 12 or more, every tone the page draws has one, and the legend names each.
    /// The first and last tick labels stand beside their ticks, inside the plot, not centred and half cut by its clip.
    func test_axis_edgeLabelsStandInsideThePlot() throws {
        let (r, lanes, _) = try replay(Self.moments)
        let html = HTMLReport.render(r, lanes: lanes)
        let classes = html.components(separatedBy: "class=\"ticklabel").dropFirst().map { $0.prefix { $0 != "\"" } }
        XCTAssertEqual(classes.first, " atstart", "the label at the plot's start")
        XCTAssertTrue(classes.contains(""), "labels inside are centred")
        XCTAssertEqual(TimelineSVG.tickClass(TimelineSVG.plotX + TimelineSVG.plotW), "ticklabel atend")
        XCTAssertEqual(TimelineSVG.tickClass(TimelineSVG.plotX + TimelineSVG.plotW / 2), "ticklabel")
    }

    func test_palette_oneColourPerMeaning_andTheLegendNamesEach() throws {
        let (r, lanes, _) = try replay(Self.moments)
        var pages = [HTMLReport.render(r, lanes: lanes)]
        for name in ["smeeting-field-service-10min.jsonl.zst", "smeeting-long-meeting-45min.jsonl.zst", "srtc-deferred-call-outcomes.jsonl"] {
            let (r, lanes) = try Fixtures.replayWithLanes(Fixtures.trace(name))
            pages.append(HTMLReport.render(r, lanes: lanes))
        }
        let css = try XCTUnwrap(pages[0].range(of: ":root {").map { String(pages[0][$0.upperBound...].prefix { $0 != "}" }) })
        var colours: [String: String] = [:]
        for decl in css.split(separator: ";") {
            let parts = decl.split(separator: ":").map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2, parts[0].hasPrefix("--t-") else { continue }
            colours[String(parts[0].dropFirst(4))] = parts[1]
        }
        XCTAssertGreaterThan(colours.count, 30)
        XCTAssertEqual(Set(colours.values).count, colours.count, "no colour is reused")
        let names = colours.keys.sorted()
        for (i, a) in names.enumerated() {
            for b in names[(i + 1)...] {
                let d = Self.deltaE(colours[a]!, colours[b]!)
                XCTAssertGreaterThanOrEqual(d, 12, "\(a) \(colours[a]!) and \(b) \(colours[b]!) look alike (ΔE \(fixed(d, 1)))")
            }
        }
        let legend = try XCTUnwrap(pages[0].range(of: "<div class=\"legend\"").map { String(pages[0][$0.lowerBound...].prefix { $0 != "\u{0}" }) })
            .components(separatedBy: "</div>")[0]
        for name in names { XCTAssertTrue(legend.contains("swatch t-\(name)\"") || legend.contains("swatch line t-\(name)\""), "the legend names \(name)") }
        // Every tone a lane, mark, marker or card uses has a colour (and so a legend entry).
        let used = try NSRegularExpression(pattern: #"\bt-([A-Za-z-]+)\b"#)
        var drawn: Set<String> = []
        for page in pages {
            let body = String(page[page.range(of: "<body>")!.upperBound...])
            for m in used.matches(in: body, range: NSRange(body.startIndex..., in: body)) {
                let tone = String(body[Range(m.range(at: 1), in: body)!])
                drawn.insert(tone)
                XCTAssertNotNil(colours[tone], "t-\(tone) is drawn but has no colour of its own")
            }
        }
        for tone in ["speaker", "on", "alert", "q-good", "activated", "failed", "callkit", "reset", "sdkRecovered", "pub", "sub", "levelChange"] {
            XCTAssertTrue(drawn.contains(tone), "the pages draw \(tone)")
        }
        for lane in lanes {
            for s in lane.segments { XCTAssertNotNil(colours[s.tone], "\(lane.id): \(s.tone)") }
            for m in lane.marks { XCTAssertNotNil(colours[m.tone], "\(lane.id): \(m.tone)") }
        }
    }

    /// CIE76 ΔE between two sRGB colours `#rrggbb`.
    static func deltaE(_ a: String, _ b: String) -> Double {
        func lab(_ hex: String) -> (Double, Double, Double) {
            let v = Int(hex.dropFirst(), radix: 16)!
            let rgb = [(v >> 16) & 255, (v >> 8) & 255, v & 255].map { c -> Double in
                let s = Double(c) / 255
                return s <= 0.04045 ? s / 12.92 : pow((s + 0.055) / 1.055, 2.4)
            }
            let x = (0.4124 * rgb[0] + 0.3576 * rgb[1] + 0.1805 * rgb[2]) / 0.95047
            let y = 0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2]
            let z = (0.0193 * rgb[0] + 0.1192 * rgb[1] + 0.9505 * rgb[2]) / 1.08883
            func f(_ t: Double) -> Double { t > 0.008856 ? cbrt(t) : 7.787 * t + 16.0 / 116 }
            return (116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z)))
        }
        let (l1, a1, b1) = lab(a), (l2, a2, b2) = lab(b)
        return ((l1 - l2) * (l1 - l2) + (a1 - a2) * (a1 - a2) + (b1 - b2) * (b1 - b2)).squareRoot()
    }

    /// Every call, divergence and finding of the 10-minute meeting has an anchor `seq-N` (one element
    /// each), owned by its card when it has one; each of their markers names that record.
    func test_anchors_everyCallDivergenceAndFindingHasOne() throws {
        let (r, lanes) = try Fixtures.replayWithLanes(Fixtures.trace("smeeting-field-service-10min.jsonl.zst"))
        let html = HTMLReport.render(r, lanes: lanes)
        let ids = try NSRegularExpression(pattern: #"id="(seq-[0-9]+)""#).matches(in: html, range: NSRange(html.startIndex..., in: html))
            .map { String(html[Range($0.range(at: 1), in: html)!]) }
        XCTAssertEqual(ids.count, Set(ids).count, "one element per anchor")
        let d = try XCTUnwrap(r.divergences.first)
        let seq = try XCTUnwrap(d.startSeq)
        XCTAssertEqual(seq, 381)
        XCTAssertTrue(html.contains("id=\"item-d-0\" data-seq=\"381\">\n<span class=\"anchor\" id=\"seq-381\"></span>"), "the divergence's card owns #seq-381")
        XCTAssertTrue(html.contains("id=\"m-d-0\" class=\"marker divergence explained\" data-item=\"item-d-0\" data-seq=\"381\""))
        for v in r.verdicts { XCTAssertTrue(ids.contains("seq-\(v.seq)"), "call seq \(v.seq)") }
        for f in r.findings { XCTAssertTrue(ids.contains("seq-\(f.seqs[0])"), "\(f.code) seq \(f.seqs[0])") }
        XCTAssertTrue(html.contains("<a class=\"permalink\" href=\"#seq-381\">link: #seq-381</a>"))
        // A record named in an explanation that has an anchor is a link to it.
        XCTAssertTrue(html.contains("<a class=\"seqlink\" href=\"#seq-14\">seq 14</a> api.setRoute"), "the call that set the prediction")
    }

    /// The graphs' points, read from the markup: every report of the 10-minute meeting, every metric
    /// and side, carries the recorded value and is drawn where that value and its time are.
    func test_graphs_everyPointIsTheRecordedValue_whereItIsDrawn() throws {
        let path = Fixtures.trace("smeeting-field-service-10min.jsonl.zst")
        let (r, lanes) = try Fixtures.replayWithLanes(path)
        let html = HTMLReport.render(r, lanes: lanes)
        var reports: [Int: (t: Int64, pub: QualitySample, sub: QualitySample)] = [:]
        for rec in try Fixtures.readAll(path).records { if case let .qualityReport(pub, sub) = rec.body { reports[rec.seq] = (rec.t, pub, sub) } }
        let t0 = Double(r.firstT ?? 0), span = Double(r.durationMs)
        let graph = try NSRegularExpression(pattern: #"<g class="graph" data-graph="(\w+)"[^>]*data-min="([^"]+)" data-max="([^"]+)"[^>]*data-top="([^"]+)" data-bottom="([^"]+)""#)
        let line = try NSRegularExpression(pattern: #"<polyline class="line series t-(pub|sub)" data-series="[\w-]+" data-seqs="([^"]+)" data-values="([^"]+)" points="([^"]+)""#)
        let graphs = graph.matches(in: html, range: NSRange(html.startIndex..., in: html))
        XCTAssertEqual(graphs.count, QualityMetric.allCases.count)
        var checked = 0
        for (i, g) in graphs.enumerated() {
            func group(_ k: Int) -> String { String(html[Range(g.range(at: k), in: html)!]) }
            let metric = try XCTUnwrap(QualityMetric(rawValue: group(1)))
            let (lo, hi, top, bottom) = (Double(group(2))!, Double(group(3))!, Double(group(4))!, Double(group(5))!)
            let end = i + 1 < graphs.count ? graphs[i + 1].range.location : (html as NSString).length
            let body = (html as NSString).substring(with: NSRange(location: g.range.location, length: end - g.range.location))
            for m in line.matches(in: body, range: NSRange(body.startIndex..., in: body)) {
                func part(_ k: Int) -> String { String(body[Range(m.range(at: k), in: body)!]) }
                let side = part(1)
                let seqs = part(2).split(separator: " ").map { Int($0)! }, values = part(3).split(separator: " ").map { Double($0)! }
                let points = part(4).split(separator: " ").map { $0.split(separator: ",").map { Double($0)! } }
                XCTAssertEqual(seqs.count, values.count)
                XCTAssertEqual(seqs.count, points.count)
                for (k, seq) in seqs.enumerated() {
                    let rep = try XCTUnwrap(reports[seq], "seq \(seq) is a quality report")
                    let expected = try XCTUnwrap(metric.value(side == "pub" ? rep.pub : rep.sub))
                    XCTAssertEqual(values[k], expected, "\(metric) \(side) seq \(seq)")
                    XCTAssertEqual(lo + (bottom - points[k][1]) / (bottom - top) * (hi - lo), expected, accuracy: (hi - lo) / (bottom - top) * 0.06)
                    XCTAssertEqual(t0 + (points[k][0] - 132) / 856 * span, Double(rep.t), accuracy: span / 856 * 0.06)
                    checked += 1
                }
            }
        }
        XCTAssertEqual(checked, reports.count * 10, "every report, five metrics, two sides")
    }

    /// The page grows linearly with what it shows, and the caps hold it: 1 000, 2 000 and 3 000 reports
    /// (under the caps) add the same bytes each time; 40 000 stay far below a page per report.
    func test_report_sizeGrowsLinearlyWithWhatItShows_andStaysBounded() throws {
        func page(_ reports: Int) throws -> Int {
            var bodies: [(Int64, RecordBody)] = [(500, .joinChannel(channel: "c")), (550, Fixtures.callSession), (600, .connState(state: .connected))]
            for i in 0..<reports {
                let level: QualityLevel = i % 50 < 5 ? .poor : .good
                bodies.append((1000 + Int64(i) * 2000, .qualityReport(
                    pub: QualitySample(level: level, score: 80, mos: 4 - Double(i % 7) / 10, loss: Double(i % 11) / 1000, rtt: Double(40 + i % 13),
                                       jitter: Double(i % 9), bitrate: Double(900 + i % 17)),
                    sub: QualitySample(level: .good, score: 70, mos: 3.9, loss: Double(i % 5) / 1000, rtt: Double(50 + i % 7), jitter: 3, bitrate: 700))))
                if i % 100 == 50 { bodies.append((1000 + Int64(i) * 2000 + 500, .sdkInterrupted)) }
            }
            let (r, lanes, _) = try replay(bodies)
            return HTMLReport.render(r, lanes: lanes).utf8.count
        }
        let (a, b, c) = (try page(200), try page(400), try page(600))
        let (d1, d2) = (Double(b - a), Double(c - b))
        XCTAssertEqual(d1, d2, accuracy: d1 * 0.1, "each 200 reports add the same: \(a), \(b), \(c) bytes")
        let big = try page(40_000)
        XCTAssertLessThan(big, 2_500_000, "the caps hold: \(big) bytes for 40 000 reports")
        XCTAssertLessThan(Double(big) / 40_000, Double(b - a) / 200 / 2, "far below the bytes per report under the caps")
    }
}
