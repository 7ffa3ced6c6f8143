import TraceModel
import XCTest

/// The SHA extensions' compression (CSHA256, where the CPU has them) against the Swift one and published
/// digests: both must give the same digest of every input, however it is cut into pieces.
final class SHA256KernelTests: XCTestCase {
    /// The digest of `bytes` given to a hasher in pieces of the sizes `cuts` repeats.
    func digest(_ bytes: [UInt8], portable: Bool, cuts: [Int] = [Int.max]) -> String {
        var h = SHA256.Hasher(portable: portable)
        var at = 0, k = 0
        bytes.withUnsafeBufferPointer { p in
            repeat {
                let n = min(cuts[k % cuts.count], bytes.count - at)
                h.update(UnsafeBufferPointer(rebasing: p[at..<(at + n)]))
                at += n
                k += 1
            } while at < bytes.count
        }
        return SHA256.hex(h.finish())
    }

    func test_bothKernelsGivePublishedDigests() {
        let vectors: [([UInt8], String)] = [
            ([], "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
            (Array("abc".utf8), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
            (Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8),
             "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
            (Array("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu".utf8),
             "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"),
            ([UInt8](repeating: 0x61, count: 1_000_000), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"),
        ]
        for (bytes, expected) in vectors {
            XCTAssertEqual(digest(bytes, portable: true), expected, "portable, \(bytes.count) bytes")
            XCTAssertEqual(digest(bytes, portable: false), expected, "default, \(bytes.count) bytes")
            XCTAssertEqual(digest(bytes, portable: false, cuts: [1, 63, 64, 65, 200]), expected, "default in pieces, \(bytes.count) bytes")
        }
    }

    func test_kernelsAgreeOnEveryLengthAroundBlockBoundaries() {
        var rng = SplitMix(seed: 31)
        let lengths = Array(0...300) + [447, 448, 449, 511, 512, 513, 4095, 4096, 4097, 65_535, 65_536, 65_537, 190_001]
        for n in lengths {
            let bytes = (0..<n).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            let reference = digest(bytes, portable: true)
            XCTAssertEqual(digest(bytes, portable: false), reference, "\(n) bytes whole")
            let cuts = (0..<4).map { _ in Int(rng.next() % 150) + 1 }
            XCTAssertEqual(digest(bytes, portable: false, cuts: cuts), reference, "\(n) bytes in pieces of \(cuts)")
            XCTAssertEqual(digest(bytes, portable: true, cuts: cuts), reference, "\(n) bytes in pieces of \(cuts), portable")
        }
    }

    func test_theExtensionsAreUsedWhereTheCPUHasThem() throws {
        #if arch(x86_64) && os(Linux)
        let cpuinfo = try String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)
        let has = cpuinfo.split(separator: "\n").contains { $0.hasPrefix("flags") && $0.split(separator: " ").contains("sha_ni") }
        XCTAssertEqual(SHA256.Hasher.hasExtensions, has, "the run-time check agrees with the kernel's flags")
        #elseif !arch(x86_64)
        XCTAssertFalse(SHA256.Hasher.hasExtensions, "the SHA extensions are an x86-64 feature")
        #endif
    }

    /// A fixed-seed generator (SplitMix64): the same inputs on every run.
    struct SplitMix {
        var state: UInt64
        init(seed: UInt64) { state = seed }
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }
}
