import Foundation
import LogImport
import TestSupport
import TraceCodec
import TraceFixtures
import TraceModel

/// One entry of a device log the tests write, before its envelope: time, level, process and message.
struct LogLine {
    /// Milliseconds since 1970 in UTC.
    var utcMs: Int64
    /// Minutes east of UTC the device was in.
    var offset: Int = 60
    var level = "Default"
    var process: String
    var pid: Int
    var path: String? = nil
    var subsystem = "com.apple.coreaudio"
    var message: String
}

/// Writes log lines in each envelope the import reads, as the device's tools write them.
enum LogWriter {
    /// `YYYY-MM-DD`, `HH:MM:SS.ffffff` and `+HHMM` of a line's local time.
    static func parts(_ l: LogLine, fraction: Int = 6) -> (date: String, time: String, offset: String) {
        let iso = UTCTime.iso(l.utcMs + Int64(l.offset) * 60_000)  // YYYY-MM-DDTHH:MM:SS.mmmZ
        let date = String(iso.prefix(10)), hms = String(iso.dropFirst(11).prefix(8)), ms = String(iso.dropFirst(20).prefix(3))
        let frac = fraction == 0 ? "" : "." + String((ms + "000000").prefix(fraction))
        return (date, hms + frac, LogClock.offsetText(l.offset))
    }

    static func ndjsonObject(_ l: LogLine) -> String {
        let p = parts(l)
        var w = JSONWriter()
        w.beginObject()
        w.key("traceID"); w.int(l.utcMs % 100_000)
        w.key("eventType"); w.string("logEvent")
        w.key("timestamp"); w.string("\(p.date) \(p.time)\(p.offset)")
        w.key("processImagePath"); w.string(l.path ?? "/usr/sbin/\(l.process)")
        w.key("processID"); w.int(l.pid)
        w.key("subsystem"); w.string(l.subsystem)
        w.key("category"); w.string("as")
        w.key("eventMessage"); w.string(l.message)
        w.key("messageType"); w.string(l.level)
        w.endObject()
        return w.string
    }

    static func ndjson(_ lines: [LogLine]) -> String { lines.map(ndjsonObject).joined(separator: "\n") + "\n{\"count\":\(lines.count),\"finished\":1}\n" }

    /// `--style json`: one array, each object over several lines as `log show` indents them.
    static func json(_ lines: [LogLine]) -> String {
        "[" + lines.map { l in
            "{\n" + ndjsonObject(l).dropFirst().dropLast().replacingOccurrences(of: ",\"", with: ",\n  \"") + "\n}"
        }.joined(separator: ",") + "\n]\n"
    }

    static func logShow(_ lines: [LogLine]) -> String {
        var o = "Filtering the log data using \"subsystem == \\\"com.apple.coreaudio\\\"\"\n"
        o += "Timestamp                       Thread     Type        Activity             PID    TTL  \n"
        for l in lines {
            let p = parts(l)
            let pid = String(l.pid).padding(toLength: 6, withPad: " ", startingAt: 0)
            o += "\(p.date) \(p.time)\(p.offset) 0x3a21f    \(l.level.padding(toLength: 11, withPad: " ", startingAt: 0)) 0x0                  \(pid) 0    "
            o += "\(l.process): (AudioSession) [\(l.subsystem):as] \(l.message)\n"
        }
        return o + "--------------------------------------------------------------------------------------------------------------------\n"
            + "Log      - Default:          \(lines.count), Info:                0, Debug:             0, Error:          0, Fault:          0\n"
    }

    /// `--style compact`: no UTC offset, milliseconds.
    static func compact(_ lines: [LogLine]) -> String {
        "Timestamp               Ty Process[PID:TID]\n" + lines.map { l in
            let p = parts(l, fraction: 3)
            return "\(p.date) \(p.time) Df \(l.process)[\(l.pid):3a21f] [\(l.subsystem):as] \(l.message)"
        }.joined(separator: "\n") + "\n"
    }

    /// A copy from Console: `LEVEL<tab>TIME<tab>PROCESS<tab>MESSAGE`, no date, no pid.
    static func console(_ lines: [LogLine], level: String = "Par défaut") -> String {
        lines.map { l in
            let p = parts(l)
            return "\(level)\t\(p.time)\(p.offset)\t\(l.process)\t\(l.message)"
        }.joined(separator: "\n") + "\n"
    }

    static func write(_ text: String, _ path: String) throws {
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }
}

/// The messages of the line shapes the import reads, as the device logs them.
enum Shapes {
    static func sessionServer(_ action: String, owner: String, pid: Int, session: String, details: String, layout: Int = 0,
                              prefix: String = "AudioSessionServerImp.mm:1283 ", extra: String = "") -> String {
        let object = layout == 0 ? "{\"ID\":\"\(session)\",\"name\":\"\(owner)(\(pid))\"}"
            : "{\"ID\":\"\(session)\",\"process\":{\"name\":\"\(owner)\",\"PID\":\(pid)}}"
        return prefix + "{ \"action\":\"\(action)\", \"session\":\(object), \"details\":\(details)\(extra) }"
    }

    static func routeChange(session: String, reason: String?) -> String {
        "SessionCore_iOS_NotificationHandlers.mm:475   Session \(session) posting AVAudioSessionRouteChangeNotification."
            + (reason.map { " Reason: AVAudioSessionRouteChangeReason\($0)" } ?? "")
    }

    static func beginInterruption(suspended: Int) -> String { "AVAudioSession_iOS.mm:2347  Begin Interruption. Was suspended:\(suspended)" }
    static func activated(_ session: String) -> String { "AVAudioSession_iOS.mm:996   Activated session \(session)" }
    static func playState(owner: String, pid: Int, session: String, playing: Bool, category: String) -> String {
        "-CMSessionMgr- cmsSetIsPlaying: sid:\(session), \(owner)(\(pid)), 'prim' with category \(category)/VoiceChat \(playing ? "started" : "stopped") playing"
    }
    static func appState(client: String, pid: Int, state: String) -> String {
        "-CMSessionMgr- CMSessionMgrHandleApplicationStateChange: CMSession: Client \(client) with pid '\(pid)' is now \(state). Background entitlement: NO"
    }
}

extension Fixtures {
    /// 2026-11-29T10:00:00Z, where the golden traces start.
    static let startMs: Int64 = UTCTime.milliseconds("2026-11-29T10:00:00Z")!
}
