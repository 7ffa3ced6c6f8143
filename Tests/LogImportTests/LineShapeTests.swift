@testable import LogImport
import TestSupport
import TraceModel
import XCTest

/// Each line shape the import reads, in the variants iOS versions log: the session server's JSON after
/// any prefix and in either session layout, errors as codes, numbers or words, route changes by API
/// name (never by source file or line), interruptions, activations, play and application states.
final class LineShapeTests: XCTestCase {
    func entry(_ message: String, process: String = "mediaserverd", pid: Int? = 55) -> LogEntry {
        LogEntry(file: "log", line: 1, timeText: "10:00:00.000+0000", clock: LogClock.parse("10:00:00.000+0000")!, level: "Default",
                 process: process, pid: pid, processPath: nil, subsystem: nil, message: message)
    }

    func facts(_ message: String, process: String = "mediaserverd", pid: Int? = 55) -> [LogFact] { LineShape.facts(entry(message, process: process, pid: pid)) ?? [] }

    func event(_ message: String, process: String = "mediaserverd") -> SystemLogRecord.Event? {
        guard let f = facts(message, process: process).first, case .system(let e) = f.what else { return nil }
        return e
    }

    func test_sessionServer_activate_inBothLayouts_afterAnyPrefix() {
        for (layout, prefix) in [(0, "AudioSessionServerImp.mm:1283 "), (1, "-CMSUtilities- AudioSessionServerImpCommon.mm:88 "), (0, ""), (1, "[as_server] ")] {
            let m = Shapes.sessionServer("activate", owner: "Meet", pid: 412, session: "0x3535e", details: "{\"controlling_PID\":150,\"controlling_name\":\"callservicesd\"}",
                                         layout: layout, prefix: prefix)
            let f = facts(m)
            XCTAssertEqual(f.count, 1, m)
            XCTAssertEqual(f.first?.process, "Meet", m)
            XCTAssertEqual(f.first?.pid, 412, m)
            XCTAssertEqual(f.first?.session, "0x3535e", m)
            XCTAssertEqual(event(m), .sessionActivated(ok: true, error: nil, controllingPid: 150, controllingProcess: "callservicesd"), m)
        }
        // A session id logged as a number is written in hex; a process name given as NAME[PID].
        XCTAssertEqual(facts("{\"action\":\"activate\",\"session\":{\"ID\":217950,\"name\":\"Meet[412]\"},\"details\":{}}").first?.session, "0x3535e")
        XCTAssertEqual(facts("{\"action\":\"activate\",\"session\":{\"ID\":217950,\"name\":\"Meet[412]\"},\"details\":{}}").first?.pid, 412)
        // Not the media server, and no session server named before the JSON: not this shape.
        XCTAssertTrue(facts(Shapes.sessionServer("activate", owner: "Meet", pid: 412, session: "0x1", details: "{}", prefix: "my app says "),
                            process: "Meet").isEmpty)
    }

    func test_sessionServer_failedActivations_nameTheAVAudioSessionError() {
        func error(_ extra: String) -> SystemLogRecord.Event? {
            event(Shapes.sessionServer("activate", owner: "Meet", pid: 412, session: "0x1", details: "{\"controlling_PID\":412}", extra: extra))
        }
        XCTAssertEqual(error(", \"error\":\"'!pri'\""), .sessionActivated(ok: false, error: "insufficientPriority", controllingPid: 412, controllingProcess: nil))
        XCTAssertEqual(error(", \"error\":561017449"), .sessionActivated(ok: false, error: "insufficientPriority", controllingPid: 412, controllingProcess: nil))
        XCTAssertEqual(error(", \"error\":\"!int\""), .sessionActivated(ok: false, error: "cannotInterruptOthers", controllingPid: 412, controllingProcess: nil))
        XCTAssertEqual(error(", \"status\":560030580"), .sessionActivated(ok: false, error: "isBusy", controllingPid: 412, controllingProcess: nil))
        XCTAssertEqual(error(", \"error\":\"AVAudioSessionErrorCodeCannotStartPlaying\""),
                       .sessionActivated(ok: false, error: "cannotStartPlaying", controllingPid: 412, controllingProcess: nil))
        XCTAssertEqual(error(", \"status\":0"), .sessionActivated(ok: true, error: nil, controllingPid: 412, controllingProcess: nil))
        // The media server's error line in words.
        XCTAssertEqual(event("AudioSessionServerImp_iOS.mm:899 Session 0x3535e Meet(412) activation failed: '!pla' (early exit due to failure)"),
                       .sessionActivated(ok: false, error: "cannotStartPlaying", controllingPid: nil, controllingProcess: nil))
    }

    func test_sessionServer_properties_andPlayState() {
        let set = facts(Shapes.sessionServer("set_property", owner: "Meet", pid: 412, session: "0x1", details: "{\"property\":\"OverrideRoute\",\"value\":\"Speaker\"}"))
        XCTAssertEqual(set.map(\.shape), ["session server set_property"])
        XCTAssertEqual(event(Shapes.sessionServer("set_server_property", owner: "Meet", pid: 412, session: "0x1", details: "{\"key\":\"PreferredInput\",\"value\":\"BluetoothHFP\"}")),
                       .propertySet(key: "PreferredInput", value: "BluetoothHFP"))
        // A property change that logs its properties as members: one record each, in name order.
        let change = facts(Shapes.sessionServer("property_change", owner: "Meet", pid: 412, session: "0x1",
                                                details: "{\"Mode\":\"VideoChat\",\"Category\":\"PlayAndRecord\",\"controlling_PID\":412}"))
        XCTAssertEqual(change.compactMap { f -> SystemLogRecord.Event? in if case .system(let e) = f.what { return e } else { return nil } },
                       [.propertySet(key: "Category", value: "PlayAndRecord"), .propertySet(key: "Mode", value: "VideoChat")])
        XCTAssertEqual(event(Shapes.sessionServer("set_play_state", owner: "Meet", pid: 412, session: "0x1", details: "{\"play_state\":\"playing\",\"category\":\"PlayAndRecord\"}")),
                       .playing(true, category: "PlayAndRecord"))
        XCTAssertEqual(event(Shapes.sessionServer("set_play_state", owner: "Meet", pid: 412, session: "0x1", details: "{\"playing\":false}")),
                       .playing(false, category: nil))
        // An action this version does not read is no recognised line.
        XCTAssertTrue(facts(Shapes.sessionServer("deactivate", owner: "Meet", pid: 412, session: "0x1", details: "{}")).isEmpty)
    }

    func test_routeChange_isMatchedByTheAPINames_notTheSourceFile() {
        for (file, reason, expected) in [("SessionCore_iOS_NotificationHandlers.mm:475", "Reason: AVAudioSessionRouteChangeReasonCategoryChange", RouteChangeReason.categoryChange),
                                         ("AVAudioSessionCommon.mm:1012", "Reason: AVAudioSessionRouteChangeReasonNewDeviceAvailable", .newDeviceAvailable),
                                         ("", "Reason: 2", .oldDeviceUnavailable), ("x.mm:1", "Reason: AVAudioSessionRouteChangeReasonSomethingNew", .unknown)] {
            let m = "\(file)   Posting AVAudioSessionRouteChangeNotification. \(reason)"
            XCTAssertEqual(event(m, process: "Meet"), .routeChanged(reason: expected), m)
        }
        XCTAssertEqual(event("SessionCore_iOS_NotificationHandlers.mm:475   Session 0xd909932 posting AVAudioSessionRouteChangeNotification.", process: "Meet"),
                       .routeChanged(reason: nil))
        XCTAssertEqual(facts("Session 0xd909932 posting AVAudioSessionRouteChangeNotification.", process: "Meet").first?.session, "0xd909932")
        // Observing the notification is not posting it.
        XCTAssertTrue(facts("added observer for AVAudioSessionRouteChangeNotification", process: "Meet").isEmpty)
    }

    func test_interruptionActivationPlayAndApplicationState() {
        guard let b = facts(Shapes.beginInterruption(suspended: 1), process: "Meet").first, case .interruptionBegan(let suspended) = b.what else {
            return XCTFail("begin interruption")
        }
        XCTAssertEqual(suspended, true)
        guard case .interruptionBegan(nil)? = facts("Begin Interruption", process: "Meet").first?.what else { return XCTFail("without Was suspended") }
        XCTAssertEqual(event(Shapes.activated("0x3535e"), process: "Meet"), .sessionActivated(ok: true, error: nil, controllingPid: nil, controllingProcess: nil))
        XCTAssertEqual(facts(Shapes.activated("0x3535e"), process: "Meet").first?.session, "0x3535e")
        let play = facts(Shapes.playState(owner: "Spotify", pid: 733, session: "0x41a2c", playing: false, category: "Playback"))
        XCTAssertEqual(play.first?.process, "Spotify")
        XCTAssertEqual(play.first?.pid, 733)
        XCTAssertEqual(play.first?.session, "0x41a2c")
        XCTAssertEqual(event(Shapes.playState(owner: "Spotify", pid: 733, session: "0x41a2c", playing: false, category: "Playback")),
                       .playing(false, category: "Playback"))
        let app = facts(Shapes.appState(client: "com.apple.mobilephone", pid: 90, state: "Foreground Running"))
        XCTAssertEqual(app.first?.process, "com.apple.mobilephone")
        XCTAssertEqual(app.first?.pid, 90)
        XCTAssertEqual(event(Shapes.appState(client: "com.apple.mobilephone", pid: 90, state: "Foreground Running")), .appState(state: "Foreground Running"))
        // Another process's play state words in a line of its own are not the media server's.
        XCTAssertTrue(facts("Spotify(733) started playing", process: "Spotify").isEmpty)
    }
}
