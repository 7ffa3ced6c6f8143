@testable import TraceModel
import TraceFixtures
import XCTest

/// A string gets the same symbol whichever way it is interned (from a `String`, from its bytes, or, up to
/// eight bytes, from the word that holds them), symbols are numbered in the order strings first come, and
/// past the cap every new string shares the overflow symbol.
final class SymbolTableTests: XCTestCase {
    /// The word of a string of at most eight bytes, the first in the lowest byte.
    func word(_ bytes: [UInt8]) -> UInt64 {
        bytes.enumerated().reduce(0) { $0 | UInt64($1.element) << UInt64(8 * $1.offset) }
    }

    /// Strings of 0 to 20 bytes, short ones with zero bytes inside and at their end (the word alone does not
    /// tell "a" from "a\0"), many sharing their first eight bytes.
    func strings() -> [[UInt8]] {
        var out: [[UInt8]] = [[], [0], [0, 0], [97], [97, 0], [97, 0, 0], [0, 97]]
        var state: UInt64 = 7
        for n in 0...20 {
            for _ in 0..<150 {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                var s = Array("speaker-uid-0000-track".utf8.prefix(n))
                for i in 0..<n where (state >> UInt64(i % 60)) & 3 == 0 { s[i] = UInt8(truncatingIfNeeded: state >> 8) & 0x7F }
                out.append(s)
            }
        }
        return out
    }

    func test_everyWayOfInterningGivesTheSameSymbol_numberedInFirstComingOrder() {
        let all = strings()
        let byBytes = SymbolTable(), byWord = SymbolTable()
        var first: [[UInt8]: UInt32] = [:]
        for _ in 0..<3 {
            for s in all {
                let b = s.withUnsafeBytes { byBytes.intern($0) }
                let w = s.count <= SymbolTable.wordBytes ? byWord.intern(word: word(s), count: s.count) : s.withUnsafeBytes { byWord.intern($0) }
                let expected = first[s] ?? UInt32(first.count + 1)
                first[s] = expected
                XCTAssertEqual(b.id, expected, "\(s)")
                XCTAssertEqual(w.id, expected, "\(s)")
                if let text = String(validating: s, as: UTF8.self) {
                    XCTAssertEqual(byBytes.intern(text), b, "the string form finds what its bytes made")
                    XCTAssertEqual(byBytes.string(b), text)
                }
            }
        }
        XCTAssertEqual(byBytes.count, first.count)
        XCTAssertEqual(byWord.count, first.count)
        XCTAssertGreaterThan(first.count, 1100, "the table grew past its first size (512 strings) twice")
    }

    func test_pastTheCapNewStringsShareTheOverflowSymbol_whicheverWayTheyCome() {
        let table = SymbolTable(maxSymbols: 3, maxBytes: 1 << 20)
        XCTAssertEqual(table.intern(word: word(Array("a".utf8)), count: 1).id, 1)
        XCTAssertEqual(table.intern("bb").id, 2)
        XCTAssertEqual(table.intern("a long string past eight bytes").id, 3)
        XCTAssertFalse(table.overflowed)
        XCTAssertEqual(table.intern(word: word(Array("c".utf8)), count: 1), .overflow)
        XCTAssertTrue(table.overflowed)
        XCTAssertEqual(table.intern("another long string past eight bytes"), .overflow)
        // Strings kept before the cap keep their symbols.
        XCTAssertEqual(table.intern(word: word(Array("bb".utf8)), count: 2).id, 2)
        XCTAssertEqual(table.intern("a").id, 1)
        XCTAssertEqual(table.string(.overflow), SymbolTable.overflowText)
        let bytes = SymbolTable(maxSymbols: 100, maxBytes: 4)
        XCTAssertEqual(bytes.intern(word: word(Array("abcd".utf8)), count: 4).id, 1)
        XCTAssertEqual(bytes.intern(word: word(Array("e".utf8)), count: 1), .overflow, "past the bytes' cap")
    }

    /// A table reset (`reset`, what an arena kept for the next replay goes through) is as a new one with its
    /// limits: its strings forgotten, numbered from 1 again in the order they come, with the text of each, its
    /// overflow forgotten; after a table that grew its slots, too.
    func test_aResetTableIsANewOne() {
        let all = strings()
        for grown in [false, true] {
            let table = SymbolTable(maxSymbols: grown ? 1 << 20 : 100)
            for s in (grown ? all : Array(all.suffix(200))) { _ = s.withUnsafeBytes { table.intern($0) } }
            XCTAssertEqual(table.overflowed, !grown)
            table.reset()
            XCTAssertEqual(table.count, 0)
            XCTAssertEqual(table.byteCount, 0)
            XCTAssertFalse(table.overflowed)
            let fresh = SymbolTable(maxSymbols: table.maxSymbols)
            for s in all.prefix(80).reversed() {
                let a = s.withUnsafeBytes { table.intern($0) }, b = s.withUnsafeBytes { fresh.intern($0) }
                XCTAssertEqual(a, b, "\(s)")
                XCTAssertEqual(table.string(a), fresh.string(b))
            }
            XCTAssertEqual(table.count, fresh.count)
            XCTAssertEqual(table.overflowed, fresh.overflowed)
        }
    }

    /// Two short strings interned as a pair (a speaker entry's uid and track id) get the symbols each gets
    /// alone, in the same order of coming, whether the pair is new, remembered, or pushed out of its slot by
    /// another; past the cap (a remembered pair keeps its overflow symbol, as its strings alone would), and
    /// after a reset, which forgets the pairs with the strings.
    func test_aPairGetsTheSymbolsItsStringsGetAlone() {
        let short = strings().filter { $0.count <= SymbolTable.wordBytes }
        var rng = SplitMix64(seed: 11)
        // Over a thousand distinct pairs for 256 slots, each coming several times, the pairs of a few strings
        // the most often.
        let pairs = (0..<6000).map { k -> ([UInt8], [UInt8]) in
            let few = k % 3 == 0
            let i = Int(rng.next() % UInt64(few ? 8 : short.count)), j = Int(rng.next() % UInt64(few ? 8 : short.count))
            return (short[i], short[j])
        }
        for maxSymbols in [1 << 20, 40] {
            let paired = SymbolTable(maxSymbols: maxSymbols), alone = SymbolTable(maxSymbols: maxSymbols)
            for round in 0..<2 {
                for (a, b) in pairs {
                    let (x, y) = paired.intern(word: word(a), count: a.count, word: word(b), count: b.count)
                    let u = alone.intern(word: word(a), count: a.count), v = alone.intern(word: word(b), count: b.count)
                    XCTAssertEqual(x, u, "\(a) of \(a), \(b)")
                    XCTAssertEqual(y, v, "\(b) of \(a), \(b)")
                }
                XCTAssertEqual(paired.count, alone.count)
                XCTAssertEqual(paired.overflowed, alone.overflowed)
                XCTAssertEqual(paired.overflowed, maxSymbols == 40)
                if round == 0 {
                    paired.reset()
                    alone.reset()
                }
            }
        }
    }
}
