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
}
