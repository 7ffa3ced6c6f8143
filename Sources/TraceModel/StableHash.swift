/// Hashes that are the same on every machine and in every run (Swift's `hashValue` is seeded per
/// process), for partitioning and matching by content.
public enum StableHash {
    /// FNV-1a, 64 bits, over the UTF-8 bytes of `s`.
    public static func fnv1a64(_ s: String) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in s.utf8 {
            h ^= UInt64(b)
            h = h &* 0x0000_0100_0000_01b3
        }
        return h
    }
}
