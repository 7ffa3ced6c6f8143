/// The single-pass path for the high-rate record types written in canonical key order (as
/// `TraceWriter` and recorders write them). Any surprise (another order, an unknown member, an
/// escape, a bad value) returns nil and the general path decodes the line instead, so this path
/// only decides speed, never results or error messages.
extension RecordDecoder {
    @inline(__always)
    func fastDecode(_ line: UnsafeBufferPointer<UInt8>) -> Record? {
        var c = JSONCursor(line)
        guard c.literal("{\"seq\":"), let seq = try? c.readInt(), seq >= 0, seq <= Int64(Int32.max) * 1024,
              c.literal(",\"t\":"), let t = try? c.readInt(), t >= 0,
              c.literal(",\"type\":") else { return nil }
        guard let (typeRange, escaped) = try? c.readStringRange(), !escaped,
              let type = RecordType.lookup(UnsafeBufferPointer(rebasing: line[typeRange])) else { return nil }
        let body: RecordBody?
        switch type {
        case .qualityReport:
            guard c.literal(",\"pub\":"), let pub = c.fastSample(), c.literal(",\"sub\":"), let sub = c.fastSample() else { return nil }
            body = .qualityReport(pub: pub, sub: sub)
        case .speakers:
            guard c.literal(",\"speaking\":"), let speaking = c.fastSpeakers(), c.literal(",\"stopped\":"),
                  let stopped = c.fastKeys() else { return nil }
            body = .speakers(speaking: speaking, stopped: stopped)
        case .sdkActiveSpeakers:
            guard c.literal(",\"speakers\":"), let speakers = c.fastSpeakers() else { return nil }
            body = .sdkActiveSpeakers(speakers: speakers)
        case .sdkQualityChanged:
            guard c.literal(",\"overall\":"), let overall = c.fastLevel(),
                  c.literal(",\"previous\":"), let previous = c.fastLevel() else { return nil }
            var mos: Double?
            if c.literal(",\"mos\":") { guard let m = try? c.readDouble() else { return nil }; mos = m }
            body = .sdkQualityChanged(overall: overall, previous: previous, mos: mos)
        case .sdkLog:
            guard c.literal(",\"level\":"), let level = c.fastString(), c.literal(",\"message\":"), let message = c.fastString() else { return nil }
            body = .sdkLog(level: level, message: message)
        default:
            return nil
        }
        guard let body, c.literal("}") else { return nil }
        c.skipWhitespace()
        guard c.atEnd else { return nil }
        return Record(seq: Int(seq), t: t, body)
    }
}

extension JSONCursor {
    /// Consumes `text` if the bytes at the cursor are exactly it.
    @inline(__always)
    mutating func literal(_ text: StaticString) -> Bool {
        let n = text.utf8CodeUnitCount
        guard end - pos >= n else { return false }
        // Keys are short: compare 8 bytes at a time inline rather than calling memcmp.
        let a = UnsafeRawPointer(bytes.baseAddress! + pos), b = UnsafeRawPointer(text.utf8Start)
        var i = 0
        while i + 8 <= n {
            if a.loadUnaligned(fromByteOffset: i, as: UInt64.self) != b.loadUnaligned(fromByteOffset: i, as: UInt64.self) { return false }
            i += 8
        }
        while i < n {
            if a.load(fromByteOffset: i, as: UInt8.self) != b.load(fromByteOffset: i, as: UInt8.self) { return false }
            i += 1
        }
        pos += n
        return true
    }

    /// A string without escapes, or nil.
    @inline(__always)
    mutating func fastString() -> String? {
        guard let (range, escaped) = try? readStringRange(), !escaped else { return nil }
        let slice = UnsafeBufferPointer(rebasing: bytes[range])
        if Self.isASCII(slice) { return String(decoding: slice, as: UTF8.self) }
        return String(validating: slice, as: UTF8.self)
    }

    /// A quality level, matched on its bytes (no String is built).
    @inline(__always)
    mutating func fastLevel() -> QualityLevel? {
        guard let (r, escaped) = try? readStringRange(), !escaped else { return nil }
        let p = bytes.baseAddress! + r.lowerBound
        switch r.count {
        case 4:
            if memcmp(p, "good", 4) == 0 { return .good }
            if memcmp(p, "poor", 4) == 0 { return .poor }
            if memcmp(p, "lost", 4) == 0 { return .lost }
            return nil
        case 7: return memcmp(p, "unknown", 7) == 0 ? .unknown : nil
        case 9: return memcmp(p, "excellent", 9) == 0 ? .excellent : nil
        default: return nil
        }
    }

    mutating func fastOptionalDouble(_ key: StaticString) -> Double?? {
        guard literal(key) else { return .some(nil) }
        guard let v = try? readDouble() else { return nil }
        return .some(v)
    }

    /// `{level, score?, mos?, loss?, rtt?, jitter?, bitrate?}` in that order.
    mutating func fastSample() -> QualitySample? {
        guard literal("{\"level\":"), let level = fastLevel() else { return nil }
        guard let score = fastOptionalDouble(",\"score\":"), let mos = fastOptionalDouble(",\"mos\":"),
              let loss = fastOptionalDouble(",\"loss\":"), let rtt = fastOptionalDouble(",\"rtt\":"),
              let jitter = fastOptionalDouble(",\"jitter\":"), let bitrate = fastOptionalDouble(",\"bitrate\":"),
              literal("}") else { return nil }
        return QualitySample(level: level, score: score, mos: mos, loss: loss, rtt: rtt, jitter: jitter, bitrate: bitrate)
    }

    /// `[{uid, trackId, level}, …]`.
    mutating func fastSpeakers() -> [Speaker]? {
        guard literal("[") else { return nil }
        var out: [Speaker] = []
        if literal("]") { return out }
        while true {
            guard literal("{\"uid\":"), let uid = fastString(), literal(",\"trackId\":"), let track = fastString(),
                  literal(",\"level\":"), let level = try? readDouble(), literal("}") else { return nil }
            out.append(Speaker(uid: uid, trackId: track, level: level))
            if literal(",") { continue }
            return literal("]") ? out : nil
        }
    }

    /// `[{uid, trackId}, …]`.
    mutating func fastKeys() -> [SpeakerKey]? {
        guard literal("[") else { return nil }
        var out: [SpeakerKey] = []
        if literal("]") { return out }
        while true {
            guard literal("{\"uid\":"), let uid = fastString(), literal(",\"trackId\":"), let track = fastString(),
                  literal("}") else { return nil }
            out.append(SpeakerKey(uid: uid, trackId: track))
            if literal(",") { continue }
            return literal("]") ? out : nil
        }
    }
}

import Glibc
