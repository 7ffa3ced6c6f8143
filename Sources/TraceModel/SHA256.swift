import CSHA256

/// SHA-256 (FIPS 180-4) and HMAC-SHA256 (RFC 2104), in plain Swift: Linux has no CryptoKit and
/// Foundation has no hash. Used to derive redaction tokens (`rtctrace redact` and the recorder) and, streamed
/// (`Hasher`), for the content hash of each trace `rtctrace triage` reads. Where the CPU has the SHA
/// extensions (x86-64), whole blocks are compressed by them (the CSHA256 target), ~10× the Swift loop.
public enum SHA256 {
    /// The round constants (the C target's one table).
    private static var k: UnsafeBufferPointer<UInt32> { UnsafeBufferPointer(start: rtc_sha256_constants(), count: 64) }

    /// The 32-byte digest of `message`.
    public static func hash(_ message: [UInt8]) -> [UInt8] {
        var h = Hasher()
        h.update(message)
        return h.finish()
    }

    /// A digest computed over bytes given piece by piece (a file read in chunks), in constant memory.
    public struct Hasher: Sendable {
        private var h: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) =
            (0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19)
        private var pending: [UInt8] = []
        private var length: UInt64 = 0
        /// Whether whole blocks go to the CPU's SHA extensions (`rtc_sha256_blocks`).
        private let extensions: Bool

        /// A digest of nothing yet.
        public init() { self.init(portable: false) }

        /// A digest of nothing yet; with `portable`, the Swift compression even where the CPU has the SHA
        /// extensions (the reference the fast path is tested against).
        package init(portable: Bool) {
            extensions = !portable && rtc_sha256_available() != 0
            pending.reserveCapacity(64)
        }

        /// Whether this CPU compresses with the SHA extensions.
        package static var hasExtensions: Bool { rtc_sha256_available() != 0 }

        /// Adds bytes.
        public mutating func update(_ bytes: some Collection<UInt8>) {
            let array = Array(bytes)
            array.withUnsafeBufferPointer { update($0) }
        }

        /// Adds the bytes of a buffer.
        public mutating func update(_ p: UnsafeBufferPointer<UInt8>) {
            length &+= UInt64(p.count)
            var i = 0
            if !pending.isEmpty {
                while pending.count < 64 && i < p.count { pending.append(p[i]); i += 1 }
                guard pending.count == 64 else { return }
                let block = pending
                block.withUnsafeBufferPointer { compress($0, at: 0, blocks: 1) }
                pending.removeAll(keepingCapacity: true)
            }
            let blocks = (p.count - i) / 64
            compress(p, at: i, blocks: blocks)
            i += blocks * 64
            while i < p.count { pending.append(p[i]); i += 1 }
        }

        /// The 32-byte digest of everything added.
        public mutating func finish() -> [UInt8] {
            let bits = length &* 8
            var tail = pending
            tail.append(0x80)
            while tail.count % 64 != 56 { tail.append(0) }
            for i in (0..<8).reversed() { tail.append(UInt8(truncatingIfNeeded: bits >> (UInt64(i) * 8))) }
            tail.withUnsafeBufferPointer { compress($0, at: 0, blocks: $0.count / 64) }
            pending.removeAll()
            var out: [UInt8] = []
            out.reserveCapacity(32)
            for v in [h.0, h.1, h.2, h.3, h.4, h.5, h.6, h.7] {
                for s in [24, 16, 8, 0] { out.append(UInt8(truncatingIfNeeded: v >> UInt32(s))) }
            }
            return out
        }

        /// Compresses `blocks` 64-byte blocks of `p` from `start` into the state.
        private mutating func compress(_ p: UnsafeBufferPointer<UInt8>, at start: Int, blocks: Int) {
            guard blocks > 0 else { return }
            if extensions, let base = p.baseAddress {
                withUnsafeMutableBytes(of: &h) { state in
                    rtc_sha256_blocks(state.baseAddress!.assumingMemoryBound(to: UInt32.self), base + start, blocks)
                }
                return
            }
            for b in 0..<blocks { compressPortable(p, at: start + b * 64) }
        }

        private mutating func compressPortable(_ p: UnsafeBufferPointer<UInt8>, at start: Int) {
            withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { w in
                for i in 0..<16 {
                    let b = start + i * 4
                    w[i] = UInt32(p[b]) << 24 | UInt32(p[b + 1]) << 16 | UInt32(p[b + 2]) << 8 | UInt32(p[b + 3])
                }
                for i in 16..<64 {
                    let s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3)
                    let s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10)
                    w[i] = w[i - 16] &+ s0 &+ w[i - 7] &+ s1
                }
                var a = h.0, b = h.1, c = h.2, d = h.3, e = h.4, f = h.5, g = h.6, hh = h.7
                let k = SHA256.k
                for i in 0..<64 {
                    let s1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)
                    let ch = (e & f) ^ (~e & g)
                    let t1 = hh &+ s1 &+ ch &+ k[i] &+ w[i]
                    let s0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)
                    let maj = (a & b) ^ (a & c) ^ (b & c)
                    let t2 = s0 &+ maj
                    hh = g; g = f; f = e; e = d &+ t1; d = c; c = b; b = a; a = t1 &+ t2
                }
                h.0 &+= a; h.1 &+= b; h.2 &+= c; h.3 &+= d; h.4 &+= e; h.5 &+= f; h.6 &+= g; h.7 &+= hh
            }
        }
    }

    /// HMAC-SHA256 of `message` under `key`.
    public static func hmac(key: [UInt8], message: [UInt8]) -> [UInt8] {
        var k = key.count > 64 ? hash(key) : key
        k += [UInt8](repeating: 0, count: 64 - k.count)
        let inner = hash(k.map { $0 ^ 0x36 } + message)
        return hash(k.map { $0 ^ 0x5c } + inner)
    }

    /// Lower-case hex of bytes.
    public static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef")
        var s = ""
        s.reserveCapacity(bytes.count * 2)
        for b in bytes { s.append(digits[Int(b >> 4)]); s.append(digits[Int(b & 0xF)]) }
        return s
    }

    fileprivate static func rotr(_ x: UInt32, _ n: UInt32) -> UInt32 { (x >> n) | (x << (32 - n)) }
}
