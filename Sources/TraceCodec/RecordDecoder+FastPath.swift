import SystemLayer
import TraceModel

/// The single-pass path for the high-rate record types written in canonical key order (as
/// `TraceWriter` and recorders write them). Any surprise (another order, an unknown member, an
/// escape, a bad value) returns nil and the general path decodes the line instead, so this path
/// only decides speed, never results or error messages.
extension RecordDecoder {
    /// The line's `seq`, `t` and high-rate `type`, in the order and spelling the writers use, with the
    /// cursor after the type; nil for any other line (both single passes begin with it). Transparent: inlined
    /// where it is called however large the caller (`decodeCompact` is past the size where the optimizer
    /// still inlines what is only marked to be), which spares a call and the passing of its answer per line.
    @_transparent
    static func fastPrefix(_ c: inout JSONCursor, _ line: UnsafeBufferPointer<UInt8>) -> (seq: Int64, t: Int64, kind: RecordKind)? {
        guard c.literal("{\"seq\":"), let seq = c.fastCount(), seq <= Int64(Int32.max) * 1024,
              c.literal(",\"t\":"), let t = c.fastCount(), t <= Record.maxT,
              c.literal(",\"type\":") else { return nil }
        // The four highest-rate types are matched as literals (closing quote included), which is
        // cheaper than scanning the name for its end and looking it up; the rest are looked up.
        if c.literal("\"srv.qualityReport\"") { return (seq, t, .qualityReport) }
        if c.literal("\"srv.speakers\"") { return (seq, t, .speakers) }
        if c.literal("\"sdk.activeSpeakers\"") { return (seq, t, .sdkActiveSpeakers) }
        if c.literal("\"sdk.log\"") { return (seq, t, .sdkLog) }
        guard let named = namedHighRateKind(&c, line) else { return nil }
        return (seq, t, named)
    }

    /// The high-rate type named at the cursor, looked up (out of line: it keeps `fastPrefix` small enough to be
    /// inlined where it is called); nil for any other type.
    @inline(never)
    static func namedHighRateKind(_ c: inout JSONCursor, _ line: UnsafeBufferPointer<UInt8>) -> RecordKind? {
        guard let (typeRange, escaped) = try? c.readStringRange(), !escaped,
              let named = RecordKindLookup.lookup(UnsafeBufferPointer(rebasing: line[typeRange])), named.isHighRate else { return nil }
        return named
    }

    @inline(__always)
    func fastDecode(_ line: UnsafeBufferPointer<UInt8>) -> Record? {
        var c = JSONCursor(line)
        guard let (seq, t, type) = Self.fastPrefix(&c, line) else { return nil }
        // The high-rate kinds only (`RecordKind.isHighRate`); every other kind takes the general path.
        let body: RecordBody?
        if type == .qualityReport {
            guard c.literal(",\"pub\":"), let pub = c.fastSample(), c.literal(",\"sub\":"), let sub = c.fastSample() else { return nil }
            body = .qualityReport(pub: pub, sub: sub)
        } else if type == .speakers {
            guard c.literal(",\"speaking\":"), let speaking = c.fastSpeakers(), c.literal(",\"stopped\":"),
                  let stopped = c.fastKeys() else { return nil }
            body = .speakers(speaking: speaking, stopped: stopped)
        } else if type == .sdkActiveSpeakers {
            guard c.literal(",\"speakers\":"), let speakers = c.fastSpeakers() else { return nil }
            body = .sdkActiveSpeakers(speakers: speakers)
        } else if type == .sdkQualityChanged {
            guard c.literal(",\"overall\":"), let overall = c.fastLevel(),
                  c.literal(",\"previous\":"), let previous = c.fastLevel() else { return nil }
            var mos: Double?
            if c.literal(",\"mos\":") { guard let m = c.fastDouble() else { return nil }; mos = m }
            body = .sdkQualityChanged(overall: overall, previous: previous, mos: mos)
        } else if type == .sdkLog {
            guard c.literal(",\"level\":"), let level = c.fastString(), c.literal(",\"message\":"), let message = c.fastString() else { return nil }
            body = .sdkLog(level: level, message: message)
        } else if type == .routeChanged {
            guard c.literal(",\"route\":"), let route: Route = c.fastVocabulary(),
                  c.literal(",\"previousRoute\":"), let previous: Route = c.fastVocabulary(),
                  c.literal(",\"reason\":"), let reason: RouteChangeReason = c.fastVocabulary() else { return nil }
            body = .routeChanged(route: route, previousRoute: previous, reason: reason)
        } else if type == .routeSnapshot {
            guard c.literal(",\"route\":"), let route: Route = c.fastVocabulary() else { return nil }
            var ports: [String]?
            if c.literal(",\"ports\":") { guard let p = c.fastStrings() else { return nil }; ports = p }
            body = .routeSnapshot(route: route, ports: ports)
        } else if type == .setRoute {
            guard c.literal(",\"target\":"), let target: RouteTarget = c.fastVocabulary() else { return nil }
            var api: String?
            if c.literal(",\"api\":") { guard let a = c.fastString() else { return nil }; api = a }
            body = .setRoute(target: target, api: api)
        } else if type == .clearRouteOverride {
            body = .clearRouteOverride
        } else if type == .deviceConnected {
            guard c.literal(",\"id\":"), let id = c.fastString(),
                  c.literal(",\"kind\":"), let kindName = c.fastString() else { return nil }
            let kind = DeviceKind(rawValue: kindName)
            var name: String?, port: String?
            if c.literal(",\"name\":") { guard let n = c.fastString() else { return nil }; name = n }
            if c.literal(",\"port\":") { guard let p = c.fastString() else { return nil }; port = p }
            body = .deviceConnected(id: id, kind: kind, name: name, port: port)
        } else if type == .deviceDisconnected {
            guard c.literal(",\"id\":"), let id = c.fastString() else { return nil }
            body = .deviceDisconnected(id: id)
        } else {
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
        // Wrapping arithmetic here and in the number readers below: positions stay within the line (0 ≤ pos ≤
        // end ≤ its length), so no sum or difference of them can overflow, and the checks would cost a pair of
        // instructions each in the decoder's hottest code.
        guard end &- pos >= n else { return false }
        // Keys are short: compared as words inline rather than by memcmp, the last word overlapping the one
        // before it (every byte read is one of the `n`).
        let a = UnsafeRawPointer(bytes.baseAddress! + pos), b = UnsafeRawPointer(text.utf8Start)
        if n >= 8 {
            var i = 0
            while i + 8 < n {
                if a.loadUnaligned(fromByteOffset: i, as: UInt64.self) != b.loadUnaligned(fromByteOffset: i, as: UInt64.self) { return false }
                i += 8
            }
            if a.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self) != b.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self) { return false }
        } else if n >= 4 {
            if a.loadUnaligned(as: UInt32.self) != b.loadUnaligned(as: UInt32.self)
                || a.loadUnaligned(fromByteOffset: n - 4, as: UInt32.self) != b.loadUnaligned(fromByteOffset: n - 4, as: UInt32.self) { return false }
        } else {
            var i = 0
            while i < n {
                if a.load(fromByteOffset: i, as: UInt8.self) != b.load(fromByteOffset: i, as: UInt8.self) { return false }
                i += 1
            }
        }
        pos &+= n
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

    /// A number in the plain form writers use (no exponent, at most 15 digits, no leading zero), or nil
    /// for anything else, which the general path then reads. Where it answers, it computes exactly what
    /// `readDouble` computes: one division of an exact mantissa by an exact power of ten.
    ///
    /// Transparent rather than `@inline(__always)`: the optimizer honours the latter only for a callee of at
    /// most 64 blocks or a caller of fewer, and this one (its word read and power of ten inlined) is larger,
    /// as are a sample's and a speaker list's readers, which would otherwise call it once per number.
    @_transparent
    mutating func fastDouble() -> Double? {
        // Most numbers end within the eight bytes at their start: read from one word (`shortNumber`). Only
        // that path is here, inlined where a sample's members and a speaker's level are read; a number near
        // the line's end, or one the word does not settle, is read out of line.
        let start = pos
        guard end &- start > 8 else { return fastDoubleNearEnd() }
        let base = bytes.baseAddress!
        let negative = base[start] == UInt8(ascii: "-")
        let p = negative ? start &+ 1 : start
        guard let (length, mantissa, fracDigits) = Self.shortNumber(Self.word(at: base + p)) else {
            return fastDoubleByBytes()
        }
        let after = p &+ length
        guard after >= end || base[after] | 0x20 != UInt8(ascii: "e") else { return nil }
        pos = after
        // Integers (most rtt, jitter and bitrate values) skip the division: dividing by 1 is exact anyway.
        let v = fracDigits == 0 ? Double(mantissa) : Double(mantissa) / Self.powerOfTen(fracDigits)
        return negative ? -v : v
    }

    /// `fastDouble` where at most eight bytes remain after the number's start: its word read from the line's
    /// last eight bytes shifted down (the bytes past the end read as zeros, which end a number); the rest
    /// byte by byte.
    @inline(never)
    mutating func fastDoubleNearEnd() -> Double? {
        let e = end
        var p = pos
        guard p < e else { return nil }
        let base = bytes.baseAddress!
        let negative = base[p] == UInt8(ascii: "-")
        if negative { p += 1 }
        let avail = e - p
        let word: UInt64
        if avail >= 8 {
            word = Self.word(at: base + p)
        } else if e >= 8 {
            word = Self.word(at: base + e - 8) >> UInt64(8 * (8 - avail))
        } else {
            return fastDoubleByBytes()
        }
        guard let (length, mantissa, fracDigits) = Self.shortNumber(word) else { return fastDoubleByBytes() }
        p += length
        guard p >= e || base[p] | 0x20 != UInt8(ascii: "e") else { return nil }
        pos = p
        let v = fracDigits == 0 ? Double(mantissa) : Double(mantissa) / Self.powerOfTen(fracDigits)
        return negative ? -v : v
    }

    /// `fastDouble`, byte by byte.
    @inline(never)
    mutating func fastDoubleByBytes() -> Double? {
        let base = bytes.baseAddress!
        let e = end
        var p = pos
        guard p < e else { return nil }
        let negative = base[p] == UInt8(ascii: "-")
        if negative { p += 1 }
        let intStart = p
        var mantissa: UInt64 = 0
        p = Self.digits(base, from: p, to: e, into: &mantissa)
        let intDigits = p - intStart
        guard intDigits > 0, intDigits == 1 || base[intStart] != UInt8(ascii: "0") else { return nil }
        var fracDigits = 0
        if p < e && base[p] == UInt8(ascii: ".") {
            p += 1
            let fracStart = p
            p = Self.digits(base, from: p, to: e, into: &mantissa)
            fracDigits = p - fracStart
            guard fracDigits > 0 else { return nil }
        }
        guard intDigits + fracDigits <= 15, p >= e || base[p] | 0x20 != UInt8(ascii: "e") else { return nil }
        pos = p
        let v = fracDigits == 0 ? Double(mantissa) : Double(mantissa) / Self.powerOfTen(fracDigits)
        return negative ? -v : v
    }

    /// A non-negative integer of at most 18 digits without a leading zero (seq, t), or nil.
    @inline(__always)
    mutating func fastCount() -> Int64? {
        // Up to seven digits from one word; longer counts, or fewer than eight bytes left, byte by byte.
        guard end &- pos >= 8, case let (k, v) = Self.leadingDigits(Self.word(at: bytes.baseAddress! + pos)),
              k < 8 else { return fastCountByBytes() }
        let base = bytes.baseAddress!
        let p = pos &+ k
        guard k > 0, k == 1 || base[pos] != UInt8(ascii: "0"), base[p] != UInt8(ascii: "."), base[p] | 0x20 != UInt8(ascii: "e") else { return nil }
        pos = p
        return Int64(v)
    }

    /// `fastCount`, byte by byte.
    @inline(never)
    mutating func fastCountByBytes() -> Int64? {
        let base = bytes.baseAddress!
        let e = end
        var value: UInt64 = 0
        let p = Self.digits(base, from: pos, to: e, into: &value)
        let digits = p - pos
        guard digits > 0, digits <= 18, digits == 1 || base[pos] != UInt8(ascii: "0") else { return nil }
        if p < e && (base[p] == UInt8(ascii: ".") || base[p] | 0x20 == UInt8(ascii: "e")) { return nil }
        pos = p
        return Int64(value)
    }

    /// A value of a closed vocabulary (written without escapes), or nil.
    @inline(__always)
    mutating func fastVocabulary<E: TraceVocabulary>() -> E? {
        guard let raw = fastString() else { return nil }
        return E(rawValue: raw)
    }

    /// An array of strings without escapes or whitespace, or nil.
    mutating func fastStrings() -> [String]? {
        fastArray { $0.fastString() }
    }

    /// `[e, …]` without whitespace, each element read by `element`; nil if any element or the
    /// punctuation is not in that form.
    @inline(__always)
    mutating func fastArray<T>(_ element: (inout JSONCursor) -> T?) -> [T]? {
        guard literal("[") else { return nil }
        var out: [T] = []
        if literal("]") { return out }
        repeat {
            guard let e = element(&self) else { return nil }
            out.append(e)
        } while literal(",")
        return literal("]") ? out : nil
    }

    /// A quality level, matched on its bytes (no String is built): the quoted word as one literal each,
    /// most frequent first, which is what finding the string's end and comparing its bytes accepts (a
    /// string without escapes that is exactly the level's word; `fastLevelByText` is that definition).
    @inline(__always)
    mutating func fastLevel() -> QualityLevel? {
        if literal("\"good\"") { return .good }
        if literal("\"poor\"") { return .poor }
        if literal("\"excellent\"") { return .excellent }
        if literal("\"lost\"") { return .lost }
        if literal("\"unknown\"") { return .unknown }
        return nil
    }

    /// `fastLevel` by finding the string (`fastText`) and comparing its bytes with each level's spelling.
    mutating func fastLevelByText() -> QualityLevel? {
        let save = pos
        guard let r = fastText(),
              let level = QualityLevel.byIndex.first(where: { RecordDecoder.equal(bytes, r, Array($0.rawValue.utf8)) }) else {
            pos = save
            return nil
        }
        return level
    }

    /// `{level, score?, mos?, loss?, rtt?, jitter?, bitrate?}` in that order. The members are read one after
    /// another, each key compared as a constant of a word or two, on a copy of the cursor that lives in
    /// registers (the line's bytes are not read through the caller's cursor between members); nil, with the
    /// cursor where the sample began, where it is not in this form.
    mutating func fastSample() -> QualitySample? {
        var c = self
        guard c.literal("{\"level\":"), let level = c.fastLevel() else { return nil }
        // QualitySample's marker for an absent member (a number read here is always finite).
        var score = Double.nan, mos = Double.nan, loss = Double.nan, rtt = Double.nan, jitter = Double.nan, bitrate = Double.nan
        if c.literal(",\"score\":") { guard let v = c.fastDouble() else { return nil }; score = v }
        if c.literal(",\"mos\":") { guard let v = c.fastDouble() else { return nil }; mos = v }
        if c.literal(",\"loss\":") { guard let v = c.fastDouble() else { return nil }; loss = v }
        if c.literal(",\"rtt\":") { guard let v = c.fastDouble() else { return nil }; rtt = v }
        if c.literal(",\"jitter\":") { guard let v = c.fastDouble() else { return nil }; jitter = v }
        if c.literal(",\"bitrate\":") { guard let v = c.fastDouble() else { return nil }; bitrate = v }
        guard c.literal("}") else { return nil }
        pos = c.pos
        return QualitySample(level: level, values: (score, mos, loss, rtt, jitter, bitrate))
    }

    /// `[{uid, trackId, level}, …]`.
    mutating func fastSpeakers() -> [Speaker]? {
        fastArray { c in
            guard c.literal("{\"uid\":"), let uid = c.fastString(), c.literal(",\"trackId\":"), let track = c.fastString(),
                  c.literal(",\"level\":"), let level = c.fastDouble(), c.literal("}") else { return nil }
            return Speaker(uid: uid, trackId: track, level: level)
        }
    }

    /// `[{uid, trackId}, …]`.
    mutating func fastKeys() -> [SpeakerKey]? {
        fastArray { c in
            guard c.literal("{\"uid\":"), let uid = c.fastString(), c.literal(",\"trackId\":"), let track = c.fastString(),
                  c.literal("}") else { return nil }
            return SpeakerKey(uid: uid, trackId: track)
        }
    }
}
