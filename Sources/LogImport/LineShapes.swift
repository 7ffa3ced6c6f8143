import TraceCodec
import TraceModel

/// The line shapes of the device's log this version reads. Each is recognised by the API names and
/// words it carries, never by a source file name or line number (those change between iOS versions).
package enum LineShape: String, CaseIterable, Sendable {
    /// The media server's session-server lines: a prefix, then a JSON object with `action` (`activate`,
    /// `set_property`, `set_server_property`, `property_change`, `set_play_state`), the session and details.
    case sessionServer = "session server"
    /// The media server's line that an activation failed (or could not interrupt another session), as text.
    case activationFailed = "activation failed"
    /// `Posting AVAudioSessionRouteChangeNotification. Reason: AVAudioSessionRouteChangeReasonX` in any process.
    case routeChange = "route change notification"
    /// `Begin Interruption. Was suspended:N` in any process.
    case beginInterruption = "begin interruption"
    /// `Activated session 0x…` in any process: it activated its own session.
    case activatedSession = "activated session"
    /// The media server's play-state line: a client started or stopped playing.
    case playState = "play state"
    /// The media server's application-state line: a client's state changed.
    case appState = "application state"

    /// The facts of an entry, by the first shape that recognises it; nil when none does.
    static func facts(_ e: LogEntry) -> [LogFact]? {
        let m = e.message
        let media = MediaServer.names.contains(e.process)
        if m.contains("{"), let facts = sessionServer(e) { return facts }
        if m.contains("AVAudioSessionRouteChangeNotification"), let f = routeChange(e) { return [f] }
        if let r = m.firstRange(of: "Begin Interruption") ?? m.firstRange(of: "begin interruption") {
            let suspended = number(after: "suspended:", in: m[r.upperBound...]) ?? number(after: "Suspended:", in: m[r.upperBound...])
            return [LogFact(entry: e, shape: Self.beginInterruption.rawValue, process: e.process, pid: e.pid, session: sessionId(in: m),
                            what: .interruptionBegan(wasSuspended: suspended.map { $0 != 0 }))]
        }
        if let r = m.firstRange(of: "Activated session 0x") {
            let id = hexRun(m[m.index(r.upperBound, offsetBy: -2)...])
            return [LogFact(entry: e, shape: Self.activatedSession.rawValue, process: e.process, pid: e.pid, session: id,
                            what: .system(.sessionActivated(ok: true, error: nil, controllingPid: nil, controllingProcess: nil)))]
        }
        guard media || m.contains("AudioSession") else { return nil }
        let lower = m.lowercased()
        if lower.contains("activat"), lower.contains("fail"), let f = activationFailed(e, lower) { return [f] }
        if let f = playState(e, lower) { return [f] }
        if let f = appState(e) { return [f] }
        return nil
    }

    // MARK: - The session server's JSON lines

    /// A session-server line: whatever comes before the JSON object (it varies between iOS versions), and
    /// either layout of the session object (`{"ID","name":"NAME(PID)"}` or `{"ID","process":{"name","PID"}}`).
    static func sessionServer(_ e: LogEntry) -> [LogFact]? {
        let m = e.message
        guard let open = m.firstIndex(of: "{") else { return nil }
        guard MediaServer.names.contains(e.process) || m[..<open].contains("AudioSession") || m[..<open].contains("CMSession") else { return nil }
        guard let json = balancedObject(m[open...]), let v = try? JSONValue.parse(json), let action = v["action"]?.string else { return nil }
        let owner = sessionOwner(v)
        let details = v["details"] ?? .object([:])
        let name = owner.name ?? e.process
        func fact(_ event: SystemLogRecord.Event) -> LogFact {
            LogFact(entry: e, shape: Self.sessionServer.rawValue + " " + action, process: name, pid: owner.pid, session: owner.session,
                    what: .system(event))
        }
        switch action {
        case "activate":
            let error = (v["error"] ?? details["error"]).flatMap(scalar) ?? status(v["status"] ?? details["status"])
            let controllingPid = (details["controlling_PID"] ?? details["controlling_pid"] ?? details["controllingPID"])?.int
            let controlling = (details["controlling_name"] ?? details["controlling_process"] ?? details["controllingProcess"])?.string
            return [fact(.sessionActivated(ok: error == nil, error: error.map(SessionErrorCode.name), controllingPid: controllingPid,
                                           controllingProcess: controlling.map(stripPid)))]
        case "set_property", "set_server_property", "property_change":
            var pairs: [(String, String)] = []
            if let key = (details["property"] ?? details["key"] ?? v["property"] ?? v["key"])?.string,
               let value = (details["value"] ?? v["value"]).flatMap(scalar) {
                pairs = [(key, value)]
            } else if let members = details.object {
                let skip: Set<String> = ["controlling_PID", "controlling_pid", "controllingPID", "controlling_name", "controlling_process", "error", "status"]
                pairs = members.filter { !skip.contains($0.key) }.compactMap { k, v in scalar(v).map { (k, $0) } }.sorted { $0.0 < $1.0 }
            }
            return pairs.isEmpty ? nil : pairs.map { fact(.propertySet(key: $0.0, value: $0.1)) }
        case "set_play_state":
            guard let state = (details["play_state"] ?? details["playing"] ?? details["state"] ?? details["is_playing"]
                               ?? v["play_state"] ?? v["playing"]).flatMap(scalar), let playing = playingWord(state) else { return nil }
            return [fact(.playing(playing, category: (details["category"] ?? v["category"])?.string))]
        default:
            return nil
        }
    }

    /// The session's owner and id, from either layout.
    static func sessionOwner(_ v: JSONValue) -> (name: String?, pid: Int?, session: String?) {
        let s = v["session"]
        var session = (s?["ID"] ?? s?["id"] ?? s?["sessionID"] ?? s?["session_id"] ?? s?["sid"]).flatMap(sessionText) ?? s.flatMap(sessionText)
        if session == nil { session = (v["sessionID"] ?? v["session_id"]).flatMap(sessionText) }
        var name: String?, pid: Int?
        for key in ["name", "process", "process_name", "processName", "client", "app"] {
            guard let n = s?[key] ?? (key == "process" || key == "client" ? v[key] : nil) else { continue }
            if let text = n.string {
                name = text
                break
            }
            if n.object != nil {
                name = (n["name"] ?? n["process_name"])?.string
                pid = (n["PID"] ?? n["pid"] ?? n["processID"])?.int
                break
            }
        }
        if pid == nil { pid = (s?["PID"] ?? s?["pid"] ?? s?["processID"] ?? v["pid"] ?? v["PID"])?.int }
        if let n = name, let (bare, p) = nameWithPid(Substring(n)) {
            name = String(bare)
            pid = pid ?? p
        }
        return (name, pid, session)
    }

    /// A session id as logged: a hex string, or a number written in hex.
    static func sessionText(_ v: JSONValue) -> String? {
        if let s = v.string { return s.isEmpty ? nil : s }
        if let n = v.int, n >= 0 { return "0x" + String(n, radix: 16) }
        return nil
    }

    /// A JSON scalar as text: a string, an integer, a number or a boolean.
    static func scalar(_ v: JSONValue) -> String? {
        switch v {
        case .string(let s): return s
        case .bool(let b): return b ? "true" : "false"
        case .number(let d): return d == d.rounded() && abs(d) < 1e15 ? String(Int64(d)) : "\(d)"
        case .null, .array, .object: return nil
        }
    }

    /// An error from a `status`: a non-zero code, or a non-empty text other than a success word.
    static func status(_ v: JSONValue?) -> String? {
        guard let v, let s = scalar(v) else { return nil }
        return ["0", "", "ok", "OK", "success", "noErr"].contains(s) ? nil : s
    }

    /// Whether a play state says playing.
    static func playingWord(_ s: String) -> Bool? {
        switch s.lowercased() {
        case "true", "1", "yes", "playing", "started", "start", "play": true
        case "false", "0", "no", "stopped", "stop", "paused", "pause", "idle": false
        default: nil
        }
    }

    /// A name without a trailing `(PID)` or `[PID]`.
    static func stripPid(_ s: String) -> String { nameWithPid(Substring(s)).map { String($0.0) } ?? s }

    // MARK: - Text lines

    /// `[Session 0x… ]posting AVAudioSessionRouteChangeNotification[. Reason: AVAudioSessionRouteChangeReasonX]`.
    static func routeChange(_ e: LogEntry) -> LogFact? {
        let m = e.message
        guard let r = m.firstRange(of: "AVAudioSessionRouteChangeNotification"), m[..<r.lowerBound].lowercased().hasSuffix("posting ") else { return nil }
        var reason: RouteChangeReason?
        if let at = m[r.upperBound...].firstRange(of: "Reason:") ?? m[r.upperBound...].firstRange(of: "reason:") {
            var word = m[at.upperBound...].drop { $0 == " " }.prefix { $0.isLetter || $0.isNumber }
            for p in ["AVAudioSessionRouteChangeReason", "RouteChangeReason"] where word.hasPrefix(p) { word = word.dropFirst(p.count) }
            reason = routeReason(String(word))
        }
        return LogFact(entry: e, shape: Self.routeChange.rawValue, process: e.process, pid: e.pid, session: sessionId(in: m),
                       what: .system(.routeChanged(reason: reason)))
    }

    /// A reason by its API name (`CategoryChange`) or number (`AVAudioSessionRouteChangeReason` raw values).
    static func routeReason(_ word: String) -> RouteChangeReason? {
        guard !word.isEmpty else { return nil }
        if let n = Int(word) {
            let byNumber: [Int: RouteChangeReason] = [0: .unknown, 1: .newDeviceAvailable, 2: .oldDeviceUnavailable, 3: .categoryChange,
                                                      4: .override, 6: .wakeFromSleep, 7: .noSuitableRouteForCategory, 8: .routeConfigurationChange]
            return byNumber[n] ?? .unknown
        }
        return RouteChangeReason(rawValue: word.prefix(1).lowercased() + word.dropFirst()) ?? .unknown
    }

    /// The media server's text line that an activation failed: the session, its owner and the error code.
    static func activationFailed(_ e: LogEntry, _ lower: String) -> LogFact? {
        let m = e.message
        guard let session = sessionId(in: m) else { return nil }
        let owner = nameWithPid(Substring(m))
        var error = "unspecified"
        if let q = m.firstIndex(of: "'"), let end = m[m.index(after: q)...].firstIndex(of: "'"), m.distance(from: q, to: end) == 5 {
            error = SessionErrorCode.name(String(m[q...end]))
        } else if let word = SessionErrorCode.byCode.values.first(where: { lower.contains($0.lowercased()) }) {
            error = word
        }
        return LogFact(entry: e, shape: Self.activationFailed.rawValue, process: owner.map { String($0.0) } ?? e.process, pid: owner?.1,
                       session: session, what: .system(.sessionActivated(ok: false, error: error, controllingPid: nil, controllingProcess: nil)))
    }

    /// The media server's play-state line: `NAME(PID)` (or `Client NAME with pid 'PID'`) `started playing`,
    /// `stopped playing`, or `isPlaying = N`, with the category when logged (`category PlayAndRecord`).
    static func playState(_ e: LogEntry, _ lower: String) -> LogFact? {
        let m = e.message
        let playing: Bool
        if lower.contains("started playing") { playing = true } else if lower.contains("stopped playing") { playing = false } else if
            let r = m.firstRange(of: "isPlaying"), let n = number(after: "", in: m[r.upperBound...].drop { $0 == " " || $0 == "=" || $0 == ":" }) {
            playing = n != 0
        } else {
            return nil
        }
        guard let owner = client(m) ?? nameWithPid(Substring(m)).map({ (String($0.0), Optional($0.1)) }) else { return nil }
        var category: String?
        if let r = m.firstRange(of: "category ") {
            let word = m[r.upperBound...].drop { $0 == "'" || $0 == "\"" }.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
            if !word.isEmpty { category = String(word) }
        }
        return LogFact(entry: e, shape: Self.playState.rawValue, process: owner.0, pid: owner.1, session: sessionId(in: m),
                       what: .system(.playing(playing, category: category)))
    }

    /// The media server's application-state line: `Client NAME with pid 'PID' is now STATE.`
    static func appState(_ e: LogEntry) -> LogFact? {
        let m = e.message
        guard let r = m.firstRange(of: " is now "), let owner = client(m) ?? nameWithPid(Substring(m)).map({ (String($0.0), Optional($0.1)) })
        else { return nil }
        let state = m[r.upperBound...].prefix { $0 != "." && $0 != "," && $0 != ";" }.trimmed
        guard !state.isEmpty else { return nil }
        return LogFact(entry: e, shape: Self.appState.rawValue, process: owner.0, pid: owner.1, session: nil, what: .system(.appState(state: state)))
    }

    /// `Client NAME with pid 'PID'` (quotes optional).
    static func client(_ m: String) -> (String, Int?)? {
        guard let r = m.firstRange(of: "Client ") ?? m.firstRange(of: "client ") else { return nil }
        let name = m[r.upperBound...].prefix { $0 != " " && $0 != "," }
        guard !name.isEmpty else { return nil }
        let pid = m.firstRange(of: "pid ").flatMap { number(after: "", in: m[$0.upperBound...].drop { $0 == "'" || $0 == "\"" }) }
        return (String(name).trimmingQuotes, pid)
    }
}

// MARK: - Scanning helpers

/// The JSON object at the start of `s`, up to its matching brace (strings and escapes respected).
func balancedObject(_ s: Substring) -> String? {
    var depth = 0, inString = false, escaped = false
    for i in s.indices {
        let c = s[i]
        if inString {
            if escaped { escaped = false } else if c == "\\" { escaped = true } else if c == "\"" { inString = false }
            continue
        }
        switch c {
        case "\"": inString = true
        case "{", "[": depth += 1
        case "}", "]":
            depth -= 1
            if depth == 0 { return String(s[...i]) }
        default: break
        }
    }
    return nil
}

/// The first `NAME(PID)` or `NAME[PID]` in `s`: a name (no spaces, quotes dropped) right before a
/// parenthesised or bracketed number.
func nameWithPid(_ s: Substring) -> (Substring, Int)? {
    var i = s.startIndex
    while let open = s[i...].firstIndex(where: { $0 == "(" || $0 == "[" }) {
        let close: Character = s[open] == "(" ? ")" : "]"
        let digits = s[s.index(after: open)...].prefix { $0.isNumber }
        let after = s.index(open, offsetBy: digits.count + 1, limitedBy: s.endIndex)
        if !digits.isEmpty, let after, after < s.endIndex, s[after] == close, let pid = Int(digits) {
            let name = s[..<open].reversed().prefix { $0 != " " && $0 != "," && $0 != ":" && $0 != "{" && $0 != "=" }
            let bare = Substring(String(name.reversed())).trimmingQuotesSub
            if !bare.isEmpty { return (bare, pid) }
        }
        i = s.index(after: open)
    }
    return nil
}

/// The session id after `Session `, `session `, `sid:` or `sid `: `0x` and hex digits.
func sessionId(in m: String) -> String? {
    for key in ["Session 0x", "session 0x", "sid:0x", "sid: 0x", "sid 0x", "SessionID 0x", "sessionID 0x"] {
        if let r = m.firstRange(of: key), let id = hexRun(m[m.index(r.upperBound, offsetBy: -2)...]) { return id }
    }
    return nil
}

/// `0x` and the hex digits after it, at the start of `s`.
func hexRun(_ s: Substring) -> String? {
    guard s.hasPrefix("0x") else { return nil }
    let digits = s.dropFirst(2).prefix { $0.isHexDigit }
    return digits.isEmpty ? nil : "0x" + digits
}

/// The number right after `key` in `s` (spaces skipped).
func number(after key: String, in s: Substring) -> Int? {
    let rest: Substring
    if key.isEmpty { rest = s } else {
        guard let r = s.firstRange(of: key) else { return nil }
        rest = s[r.upperBound...]
    }
    let digits = rest.drop { $0 == " " }.prefix { $0.isNumber }
    return Int(digits)
}

extension String {
    /// Without one pair of surrounding quotes.
    var trimmingQuotes: String { String(Substring(self).trimmingQuotesSub) }
}

extension Substring {
    /// Without surrounding quotes (`'`, `"`).
    var trimmingQuotesSub: Substring {
        var s = self
        while let f = s.first, f == "'" || f == "\"" { s = s.dropFirst() }
        while let l = s.last, l == "'" || l == "\"" { s = s.dropLast() }
        return s
    }
}
