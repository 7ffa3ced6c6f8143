/// XXH64 (seed 0), the hash whose low 32 bits a zstd frame carries as its content checksum (RFC 8878,
/// 3.1.1), written from the algorithm's description for the stored-block encoder.
public enum XXH64 {
    static let p1: UInt64 = 0x9E37_79B1_85EB_CA87
    static let p2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
    static let p3: UInt64 = 0x1656_67B1_9E37_79F9
    static let p4: UInt64 = 0x85EB_CA77_C2B2_AE63
    static let p5: UInt64 = 0x27D4_EB2F_1656_67C5

    @inline(__always) static func rotl(_ x: UInt64, _ r: UInt64) -> UInt64 { (x << r) | (x >> (64 - r)) }
    @inline(__always) static func round(_ acc: UInt64, _ input: UInt64) -> UInt64 { rotl(acc &+ input &* p2, 31) &* p1 }
    @inline(__always) static func merge(_ acc: UInt64, _ v: UInt64) -> UInt64 { (acc ^ round(0, v)) &* p1 &+ p4 }

    /// The hash of `data`.
    public static func hash(_ data: UnsafeRawBufferPointer) -> UInt64 {
        let n = data.count
        var i = 0
        @inline(__always) func u64(_ at: Int) -> UInt64 { UInt64(littleEndian: data.loadUnaligned(fromByteOffset: at, as: UInt64.self)) }
        @inline(__always) func u32(_ at: Int) -> UInt64 { UInt64(UInt32(littleEndian: data.loadUnaligned(fromByteOffset: at, as: UInt32.self))) }
        var h: UInt64
        if n >= 32 {
            var v1 = p1 &+ p2, v2 = p2, v3: UInt64 = 0, v4 = 0 &- p1
            while i + 32 <= n {
                v1 = round(v1, u64(i)); v2 = round(v2, u64(i + 8)); v3 = round(v3, u64(i + 16)); v4 = round(v4, u64(i + 24))
                i += 32
            }
            h = rotl(v1, 1) &+ rotl(v2, 7) &+ rotl(v3, 12) &+ rotl(v4, 18)
            h = merge(h, v1); h = merge(h, v2); h = merge(h, v3); h = merge(h, v4)
        } else {
            h = p5
        }
        h = h &+ UInt64(n)
        while i + 8 <= n {
            h ^= round(0, u64(i))
            h = rotl(h, 27) &* p1 &+ p4
            i += 8
        }
        if i + 4 <= n {
            h ^= u32(i) &* p1
            h = rotl(h, 23) &* p2 &+ p3
            i += 4
        }
        while i < n {
            h ^= UInt64(data[i]) &* p5
            h = rotl(h, 11) &* p1
            i += 1
        }
        h ^= h >> 33
        h = h &* p2
        h ^= h >> 29
        h = h &* p3
        h ^= h >> 32
        return h
    }
}
