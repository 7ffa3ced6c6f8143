import Analysis
import TraceCodec
@testable import LogImport
import Replay
import Reports
import TestSupport
import TraceModel
import XCTest

/// E1 in the explanation: what the system log names beside each finding and interruption, and what it
/// must not name (a record outside the window, a system process, an interruption whose cause is known).
final class E1ExplanationTests: XCTestCase {
    /// `name`'s records with system-log records merged in at their times (the trace's own `sys.*` left out).
    func replay(_ name: String, _ added: [(t: Int64, body: RecordBody)]) throws -> ReplayResult {
        let records = try Fixtures.readAll(Fixtures.trace(name)).records.filter { if case .system = $0.body { false } else { true } }
        return Replay.run(records: try TraceMerge.merge(records, added.sorted { $0.t < $1.t }).records)
    }

    func activation(_ process: String, isSelf: Bool = false, ok: Bool = true, error: String? = nil, controlling: String? = nil,
                    timeSource: SystemLogTimeSource = .anchored, uncertainty: Int64 = 1) -> RecordBody {
        .system(SystemLogRecord(.sessionActivated(ok: ok, error: error, controllingPid: nil, controllingProcess: controlling), process: process, pid: 700,
                                session: "0x1", wall: "w", isSelf: isSelf, timeSource: timeSource, uncertaintyMs: uncertainty))
    }

    static let category = "smeeting-other-component-category-change.jsonl"  // session.changedByOtherComponent at 21 s and 26 s
    static let interruption = "srtc-e1-commcenter-interruption.jsonl"    // os.interruptionBegan, cause unknown, at 20.040 s

    func test_R12_namesAnotherProcessFirst_elseAnotherComponentOfTheApp_onlyWithinTheMatchWindow() throws {
        let own = RecordBody.system(SystemLogRecord(.propertySet(key: "Category", value: "Playback"), process: "Meet", session: "0x1", wall: "w", isSelf: true,
                                                    timeSource: .anchored))
        var e = SystemLogEvidence(try replay(Self.category, [(20_500, activation("Spotify")), (20_800, own)]))
        XCTAssertEqual(e.items.first?.component, "Spotify (pid 700)")
        e = SystemLogEvidence(try replay(Self.category, [(20_800, own), (25_999, own)]))
        XCTAssertEqual(e.items.map(\.component), ["another component of the app", "another component of the app"])
        XCTAssertTrue(e.items[0].text.hasPrefix("the component is another component of the app: the app's process set Category = Playback on the app's audio session 200 ms before"),
                      e.items[0].text)
        // 1,500 ms before the change is outside the match window (1,000 ms); a route notification names nothing.
        let notified = RecordBody.system(SystemLogRecord(.routeChanged(reason: .categoryChange), process: "Spotify", wall: "w", isSelf: false, timeSource: .anchored))
        e = SystemLogEvidence(try replay(Self.category, [(19_500, activation("Spotify")), (20_900, notified)]))
        XCTAssertEqual(e.items, [])
        XCTAssertEqual(e.records, 2)
    }

    /// A record placed by the wall clock is matched with the window widened by its stated uncertainty.
    func test_wallClockRecords_widenTheWindowByTheirUncertainty() throws {
        var e = SystemLogEvidence(try replay(Self.category, [(19_500, activation("Spotify", timeSource: .wall, uncertainty: 400))]))
        XCTAssertEqual(e.items, [], "500 ms beyond the window, 400 ms uncertain")
        e = SystemLogEvidence(try replay(Self.category, [(19_500, activation("Spotify", timeSource: .wall, uncertainty: 600))]))
        XCTAssertEqual(e.items.first?.component, "Spotify (pid 700)")
        e = SystemLogEvidence(try replay(Self.category, [(19_500, activation("Spotify", timeSource: .anchored, uncertainty: 600))]))
        XCTAssertEqual(e.items, [], "an anchored record's window is the match window itself")
    }

    func test_anUnknownInterruption_takesTheCauseOfAnotherProcesssActivationBeforeIt() throws {
        func cause(_ process: String, at t: Int64 = 19_900) throws -> InterruptionCause? {
            SystemLogEvidence(try replay(Self.interruption, [(t, activation(process))])).items.first?.cause
        }
        XCTAssertEqual(try cause("CommCenter"), .systemCall)
        XCTAssertEqual(try cause("assistantd"), .siri)
        XCTAssertEqual(try cause("corespeechd"), .siri)
        XCTAssertEqual(try cause("Spotify"), .otherApp)
        XCTAssertNil(try cause("SpringBoard"), "a system process that is none of them names no cause")
        XCTAssertNil(try cause("CommCenter", at: 18_900), "outside the match window")
        XCTAssertNil(SystemLogEvidence(try replay(Self.interruption, [(19_900, activation("RTCDemo", isSelf: true))])).items.first,
                     "the app's own activation is no other caller")
        // An interruption whose cause the trace recorded is not renamed.
        let recorded = try Fixtures.readAll(Fixtures.trace("srtc-call-interruption-ended-while-connected.jsonl")).records
        let result = Replay.run(records: try TraceMerge.merge(recorded, [(20_000, activation("Spotify"))]).records)
        XCTAssertEqual(SystemLogEvidence(result).items, [])
    }

    func test_callPathNotUp_citesWhatTheSystemSaw() throws {
        let name = "srtc-v3-r17-failed-activation.jsonl"   // joined at 1 s, activations failed, callPathNotUp at 6.001 s
        var e = SystemLogEvidence(try replay(name, [(1_900, activation("RTCDemo", isSelf: true, ok: false, error: "insufficientPriority"))]))
        XCTAssertEqual(e.items.map(\.text), ["what the system saw: the app's session failed to activate (insufficientPriority) at 1.900s (seq 4)"])
        // Another process's activation, or the app's ordinary one, is not what the finding asks about.
        e = SystemLogEvidence(try replay(name, [(1_900, activation("Spotify")), (2_000, activation("RTCDemo", isSelf: true))]))
        XCTAssertEqual(e.items, [])
        e = SystemLogEvidence(try replay(name, [(2_000, activation("RTCDemo", isSelf: true, controlling: "callservicesd"))]))
        XCTAssertEqual(e.items.first?.text.hasPrefix("what the system saw: CallKit (callservicesd) activated the app's session at 2.000s"), true)
    }

    /// The report draws a system-log lane only for a trace that holds `sys.*` records.
    func test_theReportsSystemLogLane_appearsOnlyWithSystemLogRecords() throws {
        func lanes(_ name: String) -> [String] {
            let collector = ReportLanes()
            let r = try! Replay.run(TraceSession(path: Fixtures.trace(name)), observer: collector.observe)
            return collector.lanes(for: r).map(\.id)
        }
        let with = lanes("smeeting-e1-webkit-changed-category.jsonl"), without = lanes(Self.category)
        XCTAssertEqual(with.filter { $0 != ReportLanes.systemLane }, without)
        XCTAssertEqual(with.firstIndex(of: ReportLanes.systemLane), with.firstIndex(of: "session").map { $0 + 1 })
        let collector = ReportLanes()
        let r = try Replay.run(TraceSession(path: Fixtures.trace("smeeting-e1-webkit-changed-category.jsonl")), observer: collector.observe)
        let marks = collector.lanes(for: r).first { $0.id == ReportLanes.systemLane }?.marks ?? []
        XCTAssertEqual(marks.map(\.tone), ["systemSelf", "systemSelf", "systemOther", "systemSelf", "systemSelf"])
        XCTAssertEqual(marks[2].value, "com.apple.WebKit.GPU (pid 733): session activated by com.apple.WebKit.GPU")
    }
}
