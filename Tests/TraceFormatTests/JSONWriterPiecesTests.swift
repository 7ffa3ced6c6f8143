import TraceModel
import XCTest

/// The JSON writer's run of small pieces: whatever the lengths, every piece reaches the buffer once and in
/// order, read before the document closes as after; and optionals are written as their value or null.
final class JSONWriterPiecesTests: XCTestCase {
    func test_optionalsAreWrittenAsTheirValueOrNull() {
        var w = JSONWriter()
        w.beginArray()
        w.int(Int?.none); w.int(Int?.some(5)); w.int(Int64?.none); w.int(Int64?.some(-7))
        w.bool(Bool?.none); w.bool(Bool?.some(true)); w.string(String?.none); w.double(Double?.none)
        w.endArray()
        XCTAssertEqual(w.string, "[null,5,null,-7,null,true,null,null]")
    }

    func test_piecesOfEveryLengthArriveInOrder() {
        // Around the run's 128 bytes and the short strings' 64: plain strings and strings to escape of every
        // length to 300, numbers, literals, raw JSON and keys short and long, on a buffer that must grow.
        var w = JSONWriter(reserving: 1)
        var expected = "{"
        w.beginObject()
        for n in 0...300 {
            let plain = String(repeating: "a", count: n)
            let escaped = n == 0 ? "\"" : String(repeating: "é", count: n / 2) + "\"" + String(repeating: "b", count: n - n / 2)
            let half = Double(n) / 4
            if n > 0 { expected += "," }
            w.key("k\(n)")
            w.beginArray()
            w.string(plain); w.string(escaped); w.int(n * 1_000_003); w.bool(n % 2 == 0); w.null(); w.double(half); w.raw("{}")
            w.endArray()
            let number = half == half.rounded() ? String(Int(half)) : String(half)
            expected += "\"k\(n)\":[" + JSONWriter.quoted(plain) + "," + JSONWriter.quoted(escaped) + ",\(n * 1_000_003),\(n % 2 == 0),null,\(number),{}]"
            if n % 37 == 0 {
                w.staticKey("a key of more than one hundred and twenty-eight bytes, which the writer copies straight into its buffer rather than into its run")
                w.int(n)
                expected += ",\"a key of more than one hundred and twenty-eight bytes, which the writer copies straight into its buffer rather than into its run\":\(n)"
                XCTAssertEqual(String(decoding: w.bytes, as: UTF8.self), expected, "before the end, at \(n)")
                XCTAssertEqual(w.count, w.bytes.count)
            }
        }
        w.endObject()
        expected += "}"
        XCTAssertEqual(w.string, expected)
        XCTAssertEqual(w.count, expected.utf8.count)
        w.reset()
        w.beginArray(); w.int(1); w.endArray()
        XCTAssertEqual(w.string, "[1]")
    }

    func test_stringsWithSeveralBytesToEscapeKeepTheRunsBetweenThem() {
        // Runs of every length from 0 to 20 between bytes to escape, as a value and as a key.
        for run in 0...20 {
            let plain = String(repeating: "r", count: run)
            let s = "\"" + plain + "\\" + plain + "\n" + plain + "\u{1}" + plain + "é\u{7F}" + plain
            let expected = "\"\\\"" + plain + "\\\\" + plain + "\\n" + plain + "\\u0001" + plain + "é\\u007f" + plain + "\""
            var w = JSONWriter()
            w.beginObject(); w.key(s); w.string(s); w.endObject()
            XCTAssertEqual(w.string, "{" + expected + ":" + expected + "}", "run \(run)")
        }
    }

    func test_keysAndNumbersAtEveryOffsetOfTheRun() {
        // A literal key of 32 bytes (laid out in the run) and one of 33 (the other path), and numbers of every
        // length with both signs, each starting at every offset of the 128-byte run.
        var w = JSONWriter(reserving: 1)
        var expected = "["
        w.beginArray()
        let numbers: [Int64] = [0, 7, -7, 42, -42, 1_000, 123_456_789, -123_456_789_012, Int64.max, Int64.min]
        for pad in 0..<130 {
            if pad > 0 { expected += "," }
            w.beginObject()
            w.staticKey("p"); w.string(String(repeating: "x", count: pad % 61))
            w.staticKey("abcdefghijklmnopqrstuvwxyz012345"); w.int(pad)
            w.staticKey("abcdefghijklmnopqrstuvwxyz0123456"); w.bool(pad % 2 == 0)
            w.staticKey("n"); w.beginArray(); for v in numbers { w.int(v) }; w.endArray()
            w.endObject()
            expected += "{\"p\":\"" + String(repeating: "x", count: pad % 61) + "\",\"abcdefghijklmnopqrstuvwxyz012345\":\(pad)"
            expected += ",\"abcdefghijklmnopqrstuvwxyz0123456\":\(pad % 2 == 0),\"n\":[" + numbers.map { String($0) }.joined(separator: ",") + "]}"
        }
        w.endArray()
        expected += "]"
        XCTAssertEqual(w.string, expected)
        XCTAssertEqual(w.count, expected.utf8.count)
    }
}
