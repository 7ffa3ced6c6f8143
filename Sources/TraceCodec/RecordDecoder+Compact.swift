import SystemLayer
import TraceModel

/// The single pass for a replay: a line of a high-rate type written in canonical key order becomes a
/// `ReplayRecord` in a batch, its numbers parsed in place, its strings copied as byte ranges (to be
/// interned by the replay) and its lists appended to the batch's side buffers; no `String`, no `Array` per
/// record. Anything else (another order, an escape, invalid UTF-8, a value outside the vocabulary) gives
/// nil with the batch as it was, and the line is decoded whole instead, so this path decides speed, never
/// results or error messages: what it accepts is what `fastDecode` accepts, field for field.
extension RecordDecoder {
    /// Decodes `line` into `batch` (side buffers only); the record to append, or nil.
    func decodeCompact(_ line: UnsafeBufferPointer<UInt8>, into batch: inout RecordBatch) -> ReplayRecord? {
        var c = JSONCursor(line)
        guard let (seq, t, type) = Self.fastPrefix(&c, line) else { return nil }
        var r = ReplayRecord(seq: Int(seq), t: t, kind: type)
        switch type {
        case .qualityReport:
            // Its samples are appended only once the whole line has been read: no mark of the side buffers
            // to take (most lines are of this type or one without lists) and nothing to roll back.
            guard c.literal(",\"pub\":"), let pub = c.fastSample(), c.literal(",\"sub\":"), let sub = c.fastSample(),
                  c.closesLine() else { return nil }
            r.setQualityReport(samplesAt: batch.samples.count)
            batch.samples.append(pub)
            batch.samples.append(sub)
            return r
        case .sdkLog:
            // Read, not kept: nothing a replay compares is in it.
            guard c.literal(",\"level\":"), c.fastText() != nil, c.literal(",\"message\":"), c.fastText() != nil,
                  c.closesLine() else { return nil }
            return r
        case .speakers, .sdkActiveSpeakers:
            // Nearly half the lines: read here, with a mark of only the buffers a speaker list appends to.
            let spans = batch.spans.count, bytes = batch.bytes.count, start = batch.speakers.count
            if type == .speakers {
                if c.literal(",\"speaking\":"), let speaking = c.compactSpeakers(levels: true, into: &batch),
                   c.literal(",\"stopped\":"), let stopped = c.compactSpeakers(levels: false, into: &batch), c.closesLine() {
                    r.setSpeakers(start: start, speaking: speaking, stopped: stopped)
                    return r
                }
            } else if c.literal(",\"speakers\":"), let n = c.compactSpeakers(levels: true, into: &batch), c.closesLine() {
                r.setActiveSpeakers(start: start, count: n)
                return r
            }
            batch.rollBack(to: RecordBatch.Mark(bytes: bytes, spans: spans, speakers: start, samples: .max, lists: .max))
            return nil
        case .sdkQualityChanged, .routeChanged, .clearRouteOverride, .routeSnapshot, .setRoute, .deviceConnected, .deviceDisconnected:
            // The rarer high-rate types, read out of line: this function stays small enough for the optimizer
            // to inline what the frequent types call.
            return rarer(&c, line, &r, into: &batch) ? r : nil
        case .header, .dropped, .checkpoint, .report, .paused, .joinChannel, .leaveChannel, .enterMeeting, .exitMeeting, .setDefaultRoute,
             .setAudioModuleEnabled, .subscribe, .switchLayer, .micPermission, .interruptionBegan, .interruptionEnded, .callState,
             .appState, .mediaServicesReset, .callKit, .sessionActivated, .sessionDeactivated, .overrideOutput, .sdkInterrupted,
             .sdkRecovered, .sdkCallStateChanged, .sdkLayerSwitched, .sdkError, .connEngine, .connState, .srvLayerSwitched,
             .sysSessionActivated, .sysRouteChanged, .sysPropertySet, .sysPlaying, .sysAppState:
            // Not a high-rate type: decoded whole.
            return nil
        }
    }

    /// The members of the rarer high-rate types, up to the line's end; false (with the side buffers as they
    /// were) where the line is not in the form this pass reads.
    @inline(never)
    private func rarer(_ c: inout JSONCursor, _ line: UnsafeBufferPointer<UInt8>, _ r: inout ReplayRecord,
                       into batch: inout RecordBatch) -> Bool {
        switch r.kind {
        case .sdkQualityChanged?:
            guard c.literal(",\"overall\":"), let overall = c.fastLevel(),
                  c.literal(",\"previous\":"), let previous = c.fastLevel() else { return false }
            var mos: Double?
            if c.literal(",\"mos\":") { guard let m = c.fastDouble() else { return false }; mos = m }
            guard c.closesLine() else { return false }
            r.setQualityChanged(overall: overall, previous: previous, mos: mos)
            return true
        case .routeChanged?:
            guard c.literal(",\"route\":"), let route = c.fastWord(Route.words),
                  c.literal(",\"previousRoute\":"), let previous = c.fastWord(Route.words),
                  c.literal(",\"reason\":"), let reason = c.fastWord(RouteChangeReason.words), c.closesLine() else { return false }
            r.setRouteChanged(route: Route.byIndex[route], previous: Route.byIndex[previous], reason: RouteChangeReason.byIndex[reason])
            return true
        case .clearRouteOverride?:
            return c.closesLine()
        case .routeSnapshot?, .setRoute?, .deviceConnected?, .deviceDisconnected?:
            // These append to the side buffers as they read: what a line that turns out not to decode here
            // appended is taken back.
            let mark = batch.mark
            if listing(&c, line, &r, into: &batch), c.closesLine() { return true }
            batch.rollBack(to: mark)
            return false
        case .qualityReport?, .speakers?, .sdkActiveSpeakers?, .sdkLog?, .header?, .dropped?, .checkpoint?,
             .report?, .paused?, .joinChannel?, .leaveChannel?, .enterMeeting?, .exitMeeting?, .setDefaultRoute?, .setAudioModuleEnabled?,
             .subscribe?, .switchLayer?, .micPermission?, .interruptionBegan?, .interruptionEnded?, .callState?, .appState?,
             .mediaServicesReset?, .callKit?, .sessionActivated?, .sessionDeactivated?, .overrideOutput?, .sdkInterrupted?, .sdkRecovered?,
             .sdkCallStateChanged?, .sdkLayerSwitched?, .sdkError?, .connEngine?, .connState?, .srvLayerSwitched?, .sysSessionActivated?,
             .sysRouteChanged?, .sysPropertySet?, .sysPlaying?, .sysAppState?, nil:
            // Read in `decodeCompact`, or not here at all.
            return false
        }
    }

    /// The members of the rarer high-rate types whose strings and lists go into the side buffers; false
    /// where the line is not in the form this pass reads.
    @inline(__always)
    private func listing(_ c: inout JSONCursor, _ line: UnsafeBufferPointer<UInt8>, _ r: inout ReplayRecord,
                         into batch: inout RecordBatch) -> Bool {
        switch r.kind {
        case .routeSnapshot?:
            guard c.literal(",\"route\":"), let route = c.fastWord(Route.words) else { return false }
            var ports: Range<Int>?
            if c.literal(",\"ports\":") {
                let start = batch.lists.count
                guard c.compactTexts(into: &batch) else { return false }
                ports = start..<batch.lists.count
            }
            r.setRouteSnapshot(route: Route.byIndex[route], ports: ports)
        case .setRoute?:
            guard c.literal(",\"target\":"), let target = c.fastWord(RouteTarget.words) else { return false }
            var api: UInt32 = 0
            if c.literal(",\"api\":") { guard let a = c.fastText() else { return false }; api = batch.addText(line, a) }
            r.setSetRoute(target: RouteTarget.byIndex[target], api: api)
        case .deviceConnected?:
            guard c.literal(",\"id\":"), let id = c.fastText(), c.literal(",\"kind\":"), let kind = c.fastText() else { return false }
            let idSlot = batch.addText(line, id)
            let listed = DeviceKind.words.firstIndex { Self.equal(line, kind, $0) }
            let unlisted = listed == nil ? batch.addText(line, kind) : 0
            var name: UInt32 = 0, port: UInt32 = 0
            if c.literal(",\"name\":") { guard let n = c.fastText() else { return false }; name = batch.addText(line, n) }
            if c.literal(",\"port\":") { guard let p = c.fastText() else { return false }; port = batch.addText(line, p) }
            r.setDeviceConnected(id: idSlot, kind: listed, unlisted: unlisted, name: name, port: port)
        case .deviceDisconnected?:
            guard c.literal(",\"id\":"), let id = c.fastText() else { return false }
            r.setDeviceDisconnected(id: batch.addText(line, id))
        case .qualityReport?, .speakers?, .sdkActiveSpeakers?, .sdkQualityChanged?, .sdkLog?, .routeChanged?, .clearRouteOverride?, .header?, .dropped?, .checkpoint?,
             .report?, .paused?, .joinChannel?, .leaveChannel?, .enterMeeting?, .exitMeeting?, .setDefaultRoute?, .setAudioModuleEnabled?,
             .subscribe?, .switchLayer?, .micPermission?, .interruptionBegan?, .interruptionEnded?, .callState?, .appState?,
             .mediaServicesReset?, .callKit?, .sessionActivated?, .sessionDeactivated?, .overrideOutput?, .sdkInterrupted?, .sdkRecovered?,
             .sdkCallStateChanged?, .sdkLayerSwitched?, .sdkError?, .connEngine?, .connState?, .srvLayerSwitched?, .sysSessionActivated?,
             .sysRouteChanged?, .sysPropertySet?, .sysPlaying?, .sysAppState?, nil:
            // Read without lists (`decodeCompact`), or not here at all.
            return false
        }
        return true
    }

    @inline(__always)
    static func equal(_ line: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ word: [UInt8]) -> Bool {
        range.count == word.count && word.withUnsafeBytes { Memory.equal(line.baseAddress! + range.lowerBound, $0.baseAddress!, count: word.count) }
    }
}

extension JSONCursor {
    /// Consumes the record's closing brace; true when only whitespace follows it.
    @inline(__always)
    mutating func closesLine() -> Bool {
        guard literal("}") else { return false }
        skipWhitespace()
        return atEnd
    }

    /// A string without escapes whose bytes are valid UTF-8 (what `fastString` reads), as its range; the
    /// bytes are scanned eight at a time.
    @inline(__always)
    mutating func fastText() -> Range<Int>? {
        guard pos < end, bytes[pos] == UInt8(ascii: "\"") else { return nil }
        // Wrapping arithmetic on positions, which stay within the line.
        let start = pos &+ 1
        var p = start
        let base = UnsafeRawPointer(bytes.baseAddress!)
        var ascii = true
        // Eight bytes at a time: stop at the first quote, backslash, control character or byte over 0x7F (the
        // lowest flagged byte is exactly the first: a borrow only flags bytes above a true one). A quote
        // there ends an ASCII string; anything else is looked at byte by byte from there.
        while p &+ 8 <= end {
            let w = base.loadUnaligned(fromByteOffset: p, as: UInt64.self)
            let quote = w ^ 0x2222_2222_2222_2222, slash = w ^ 0x5C5C_5C5C_5C5C_5C5C
            let lows: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
            let special = (((quote &- lows) & ~quote) | ((slash &- lows) & ~slash) | ((w &- 0x2020_2020_2020_2020) & ~w) | w) & highs
            if special != 0 {
                p &+= special.trailingZeroBitCount / 8
                if bytes[p] == UInt8(ascii: "\"") {
                    pos = p &+ 1
                    return start..<p
                }
                break
            }
            p &+= 8
        }
        while p < end {
            let b = bytes[p]
            if b == UInt8(ascii: "\"") {
                pos = p + 1
                let range = start..<p
                if !ascii, String(validating: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self) == nil { return nil }
                return range
            }
            if b == UInt8(ascii: "\\") || b < 0x20 { return nil }
            if b >= 0x80 { ascii = false }
            p += 1
        }
        return nil
    }

    /// A value of a closed vocabulary, matched on its bytes against `words` (the cases' spellings in order):
    /// its index.
    @inline(__always)
    mutating func fastWord(_ words: [[UInt8]]) -> Int? {
        let save = pos
        guard let range = fastText(), let i = words.firstIndex(where: { RecordDecoder.equal(bytes, range, $0) }) else {
            pos = save
            return nil
        }
        return i
    }

    /// `[{uid, trackId[, level]}, …]` appended to the batch's speakers; how many. Read on a copy of the cursor
    /// that lives in registers, as a quality sample is; nil, with the cursor where the list began, where the list
    /// is not in this form.
    mutating func compactSpeakers(levels: Bool, into batch: inout RecordBatch) -> Int? {
        var c = self
        guard c.literal("[") else { return nil }
        var n = 0
        if !c.literal("]") {
            repeat {
                guard c.literal("{\"uid\":"), let uid = c.fastText(), c.literal(",\"trackId\":"), let track = c.fastText() else { return nil }
                var level = 0.0
                if levels { guard c.literal(",\"level\":"), let l = c.fastDouble() else { return nil }; level = l }
                guard c.literal("}") else { return nil }
                let u = batch.addText(bytes, uid), k = batch.addText(bytes, track)
                batch.speakers.append(SpeakerRef(uid: Symbol(id: u), track: Symbol(id: k), level: level))
                n += 1
            } while c.literal(",")
            guard c.literal("]") else { return nil }
        }
        pos = c.pos
        return n
    }

    /// `["…", …]` appended to the batch's lists.
    mutating func compactTexts(into batch: inout RecordBatch) -> Bool {
        guard literal("[") else { return false }
        if literal("]") { return true }
        repeat {
            guard let s = fastText() else { return false }
            batch.lists.append(Symbol(id: batch.addText(bytes, s)))
        } while literal(",")
        return literal("]")
    }
}

// The spellings of the closed vocabularies the single pass matches, in their cases' order.
extension Route { static let words = byIndex.map { Array($0.rawValue.utf8) } }
extension RouteTarget { static let words = byIndex.map { Array($0.rawValue.utf8) } }
extension RouteChangeReason { static let words = byIndex.map { Array($0.rawValue.utf8) } }
extension DeviceKind { static let words = listed.map { Array($0.rawValue.utf8) } }
