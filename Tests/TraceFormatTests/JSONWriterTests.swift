import TraceFixtures
import TraceModel
import XCTest

/// The JSON writer: integers as Swift prints them, commas at every depth (past the 64 levels its bit
/// stack holds too), and keys written from literals as from strings.
final class JSONWriterTests: XCTestCase {
    func test_integersAreWrittenAsSwiftPrintsThem() {
        var g = SplitMix64(seed: 9)
        var values: [Int64] = [0, 1, -1, 9, 10, -10, 99, 100, -100, 101, 999, 1000, Int64.max, Int64.min, Int64.max - 1, Int64.min + 1]
        for p in 0..<19 {
            let ten = Int64(pow(10.0, Double(p)))
            values += [ten - 1, ten, ten + 1, -ten, -(ten - 1)]
        }
        for _ in 0..<5_000 { values.append(Int64(bitPattern: g.next()) >> Int64(g.below(63))) }
        for v in values {
            var w = JSONWriter()
            w.int(v)
            XCTAssertEqual(w.string, String(v))
            var narrow = JSONWriter()
            narrow.int(Int(v))
            XCTAssertEqual(narrow.string, String(v))
            var generic = JSONWriter()
            generic.int(Int32(truncatingIfNeeded: v))
            XCTAssertEqual(generic.string, String(Int32(truncatingIfNeeded: v)))
        }
    }

    func test_commasAtEveryDepth() {
        for depth in [1, 2, 63, 64, 65, 66, 130] {
            var w = JSONWriter()
            var expected = ""
            for level in 0..<depth {
                if level % 2 == 0 {
                    w.beginArray(); w.int(level)
                    expected += "[\(level),"
                } else {
                    w.beginObject(); w.staticKey("a"); w.int(level); w.key("b")
                    expected += #"{"a":\#(level),"b":"#
                }
            }
            w.null()
            expected += "null"
            for level in (0..<depth).reversed() {
                if level % 2 == 0 {
                    w.int(-level); w.endArray()
                    expected += ",\(-level)]"
                } else {
                    w.staticKey("c"); w.bool(true); w.endObject()
                    expected += #","c":true}"#
                }
            }
            XCTAssertEqual(w.string, expected, "depth \(depth)")
            w.reset()
            w.beginArray(); w.int(1); w.int(2); w.endArray()
            XCTAssertEqual(w.string, "[1,2]", "a reset writer starts afresh")
        }
    }

    func test_stringsAreEscapedAsTheByteLoopEscapesThem() {
        // Every byte that matters (and a multi-byte character) at every place of strings up to 40 bytes, so
        // each lands at every offset of an eight-byte word, of a sixteen-byte one, and in the tail.
        func reference(_ s: String) -> [UInt8] {
            var o = Array("\"".utf8)
            for c in s.utf8 {
                switch c {
                case 0x22: o += Array("\\\"".utf8)
                case 0x5C: o += Array("\\\\".utf8)
                case 0x0A: o += Array("\\n".utf8)
                case 0x0D: o += Array("\\r".utf8)
                case 0x09: o += Array("\\t".utf8)
                case 0..<0x20, 0x7F: o += Array(("\\u00" + String(c >> 4, radix: 16) + String(c & 0xF, radix: 16)).utf8)
                default: o.append(c)
                }
            }
            return o + Array("\"".utf8)
        }
        let specials: [String] = ["\"", "\\", "\n", "\u{0}", "\u{1F}", "\u{7F}", " ", "~", "é", "\u{80}", "a"]
        for n in 0...40 {
            for at in 0..<max(n, 1) {
                for special in specials {
                    var s = String(repeating: "x", count: n)
                    if n > 0 { s = String(s.prefix(at)) + special + String(s.dropFirst(at + 1)) }
                    var out: [UInt8] = []
                    JSONWriter.appendEscaped(s, to: &out)
                    XCTAssertEqual(out, reference(s), "\(n) \(at) \(special.unicodeScalars.first!.value)")
                }
            }
        }
    }

    func test_aLiteralKeyIsWrittenAsTheSameStringKey() {
        var a = JSONWriter(), b = JSONWriter()
        a.beginObject(); a.staticKey("seq"); a.int(1); a.staticKey("findingCounts"); a.beginObject(); a.endObject(); a.endObject()
        b.beginObject(); b.key("seq"); b.int(1); b.key("findingCounts"); b.beginObject(); b.endObject(); b.endObject()
        XCTAssertEqual(a.bytes, b.bytes)
    }

    func test_literalKeysOfEveryShortLengthAreWrittenWhole() {
        // Keys of 1 to 17 bytes, each length copied by its own widths: all of their bytes, in order.
        var a = JSONWriter()
        a.beginObject()
        a.staticKey("a"); a.int(1); a.staticKey("ab"); a.int(2); a.staticKey("abc"); a.int(3); a.staticKey("abcd"); a.int(4)
        a.staticKey("abcde"); a.int(5); a.staticKey("abcdefg"); a.int(7); a.staticKey("abcdefgh"); a.int(8)
        a.staticKey("abcdefghi"); a.int(9); a.staticKey("abcdefghijklmno"); a.int(15); a.staticKey("abcdefghijklmnop"); a.int(16)
        a.staticKey("abcdefghijklmnopq"); a.int(17)
        a.endObject()
        let members = [1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17].map { "\"" + "abcdefghijklmnopq".prefix($0) + "\":\($0)" }
        XCTAssertEqual(a.string, "{" + members.joined(separator: ",") + "}")
    }
}
