/// SplitMix64: a tiny deterministic generator, so every randomised test and synthetic trace is
/// reproducible from its seed (Foundation's generators are not seedable).
package struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// Creates a generator from a seed.
    package init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in 0..<n.
    package mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
    /// True with the given percent chance.
    package mutating func chance(_ percent: Int) -> Bool { below(100) < percent }
    /// One of the items.
    package mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }
    /// Uniform in [0, 1).
    package mutating func unit() -> Double { Double(next() >> 11) / Double(UInt64(1) << 53) }
}
