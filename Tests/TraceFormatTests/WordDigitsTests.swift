@testable import TraceCodec
import TraceFixtures
import XCTest

/// The decoder's numbers read from a machine word (`JSONCursor.shortNumber`, `leadingDigits`) give what the
/// byte loops that define them give (`fastDoubleByBytes`, `fastCountByBytes`): the same value, the same end,
/// the same refusals, wherever the number stands relative to the end of the line; and a batch's short
/// strings, kept in their spans, read back as the bytes they were; and strings found eight bytes at a time
/// (`fastText`) are the reader's strings (`readStringRange`) that hold no escape and are valid UTF-8.
final class WordDigitsTests: XCTestCase {
    /// Texts of numbers and near-numbers: plain forms, leading zeros, signs, dots without digits, exponents,
    /// long runs of digits.
    func numberTexts() -> [String] {
        var rng = SplitMix64(seed: 31)
        var texts = ["0", "7", "10", "0.5", "00", "01", "0.", ".5", "-", "-0", "-0.25", "1e5", "1E5", "2.5e3", "12345678",
                     "1234567", "123456.7", "12345.67", "1.234567", "99999999.5", "1.", "1.x", "3.78", "1308", "-12.5"]
        let alphabet = Array("0123456789012345678901234567890123456789..--eE,}x ")
        for _ in 0..<20_000 {
            let n = Int(rng.next() % 14) + 1
            texts.append(String((0..<n).map { _ in alphabet[Int(rng.next() % UInt64(alphabet.count))] }))
        }
        return texts
    }

    func test_numbersFromAWordAreTheByteLoopsNumbers() {
        for text in numberTexts() {
            // The number at the start of a line, then with one to nine bytes after it, and with a long tail.
            for tail in ["", "}", "}}", ",\"x\":1}", "]}}", "0000000000"] {
                let bytes = Array(("{\"v\":" + text + tail).utf8)
                bytes.withUnsafeBufferPointer { line in
                    var a = JSONCursor(line, from: 5), b = JSONCursor(line, from: 5)
                    let x = a.fastDouble(), y = b.fastDoubleByBytes()
                    XCTAssertEqual(x?.bitPattern, y?.bitPattern, "fastDouble of \(text)\(tail)")
                    if x != nil { XCTAssertEqual(a.pos, b.pos, "end of \(text)\(tail)") }
                    // The out-of-line path too, wherever the number stands (the inlined one leaves it the last
                    // eight bytes of a line).
                    var e = JSONCursor(line, from: 5)
                    let z = e.fastDoubleNearEnd()
                    XCTAssertEqual(z?.bitPattern, y?.bitPattern, "fastDoubleNearEnd of \(text)\(tail)")
                    if z != nil { XCTAssertEqual(e.pos, b.pos, "near-end end of \(text)\(tail)") }
                    var c = JSONCursor(line, from: 5), d = JSONCursor(line, from: 5)
                    let m = c.fastCount(), n = d.fastCountByBytes()
                    XCTAssertEqual(m, n, "fastCount of \(text)\(tail)")
                    if m != nil { XCTAssertEqual(c.pos, d.pos, "count end of \(text)\(tail)") }
                }
            }
        }
    }

    /// Decimals of the shapes traces carry (a score, a mos, a loss ratio, a level, an rtt, a bitrate), with
    /// signs, negative zero, long fractions and near-halfway cases: wherever the fast reader answers, and
    /// wherever the number stands in the line, its value is the one `Double(String)` gives, bit for bit.
    func test_fastNumbersAreTheStandardLibrarysDoubles() {
        var rng = SplitMix64(seed: 53)
        var texts = ["0", "-0", "-0.0", "0.0", "0.1", "0.2", "0.3", "0.7", "1.1", "2.675", "0.15", "0.25", "0.35", "4.35",
                     "9007199254740993", "900719925474099.3", "123456789012345", "12345678901234.5", "0.000001", "99999.99999",
                     "1e3", "3.77", "83.8", "82.65", "0.01", "404", "115"]
        for _ in 0..<50_000 {
            let integer = rng.next() % 4 == 0 ? "0" : String(rng.next() % [10, 100, 1_000, 100_000, 10_000_000][Int(rng.next() % 5)] + 1)
            let fraction = (0..<Int(rng.next() % 9)).map { _ in String(rng.next() % 10) }.joined()
            let sign = rng.next() % 8 == 0 ? "-" : ""
            texts.append(sign + integer + (fraction.isEmpty ? "" : "." + fraction))
        }
        var answered = 0
        for text in texts {
            for tail in ["", "}", "}]}", ",\"rtt\":52,\"jitter\":31}"] {
                let bytes = Array(("{\"v\":" + text + tail).utf8)
                bytes.withUnsafeBufferPointer { line in
                    var c = JSONCursor(line, from: 5)
                    guard let got = c.fastDouble() else { return }
                    answered += 1
                    XCTAssertEqual(got.bitPattern, Double(text)?.bitPattern, "fastDouble of \(text)\(tail)")
                    XCTAssertEqual(c.pos, 5 + text.utf8.count, "end of \(text)\(tail)")
                }
            }
        }
        // Most of them are in the form the fast reader takes.
        XCTAssertGreaterThan(answered, texts.count * 2)
    }

    func test_leadingDigitsCountAndConvertEveryPrefix() {
        var rng = SplitMix64(seed: 8)
        for _ in 0..<20_000 {
            let bytes = (0..<8).map { _ in rng.next() % 3 == 0 ? UInt8(truncatingIfNeeded: rng.next()) : UInt8(0x30 + rng.next() % 10) }
            var count = 0
            var value: UInt64 = 0
            while count < 8, (0x30...0x39).contains(bytes[count]) { value = value * 10 + UInt64(bytes[count] - 0x30); count += 1 }
            let word = bytes.enumerated().reduce(UInt64(0)) { $0 | UInt64($1.element) << UInt64(8 * $1.offset) }
            let got = JSONCursor.leadingDigits(word)
            XCTAssertEqual(got.count, count, "\(bytes)")
            XCTAssertEqual(got.value, value, "\(bytes)")
        }
    }

    func test_shortAndLongStringsReadBackFromTheBatch() {
        var batch = RecordBatch()
        var slots: [(UInt32, [UInt8])] = []
        for length in 0...20 {
            let text = Array("abcdefghijklmnopqrstuvwxyz".utf8.prefix(length))
            // Each string both far from the line's end and at its very end (fewer than eight bytes after it).
            for line in [Array("\"".utf8) + text + Array("\",\"more\":\"padding\"".utf8), Array("\"".utf8) + text + Array("\"".utf8)] {
                let slot = line.withUnsafeBufferPointer { batch.addText($0, 1..<(1 + length)) }
                slots.append((slot, text))
            }
        }
        for (slot, text) in slots {
            XCTAssertEqual(batch.withText(slot) { Array(UnsafeRawBufferPointer(start: $0, count: $1)) }, text)
        }
    }

    func test_stringsFoundEightBytesAtATimeAreTheReadersStrings() {
        var rng = SplitMix64(seed: 13)
        // Plain letters with quotes, backslashes, control bytes and UTF-8 (valid and not) at every offset.
        let pieces: [[UInt8]] = [[0x61], [0x62], [0x22], [0x5C, 0x22], [0x5C], [0x01], [0x1F], [0x20], [0x7F], [0xC3, 0xA9], [0xE2, 0x82, 0xAC], [0xFF], [0xC3]]
        for _ in 0..<20_000 {
            var body: [UInt8] = []
            for _ in 0..<Int(rng.next() % 20) { body += pieces[rng.next() % 4 == 0 ? Int(rng.next() % UInt64(pieces.count)) : Int(rng.next() % 2)] }
            let line: [UInt8] = [0x22] + body + [0x22] + (rng.next() % 2 == 0 ? Array(",\"k\":1}".utf8) : [])
            line.withUnsafeBufferPointer { bytes in
                var fast = JSONCursor(bytes), reader = JSONCursor(bytes)
                let got = fast.fastText()
                let definition = try? reader.readStringRange()
                var expected: Range<Int>?
                if let (range, escaped) = definition, !escaped, String(validating: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self) != nil {
                    expected = range
                }
                XCTAssertEqual(got, expected, "\(line)")
                if got != nil { XCTAssertEqual(fast.pos, reader.pos, "\(line)") }
            }
        }
    }

    func test_levelsAsLiteralsAreTheLevelsFoundAsStrings() {
        var rng = SplitMix64(seed: 47)
        let words = ["good", "poor", "excellent", "lost", "unknown"]
        // The words, each cut short, lengthened, with an escape or another case, then random strings made of their letters.
        var bodies = words
        for w in words {
            bodies += [String(w.dropLast()), w + "s", "x" + w, w.uppercased(), "\\u0067" + w.dropFirst(), w + "\\\"", String(w.dropFirst())]
        }
        let letters = Array("goodpxcelntlsukw\\\" ")
        for _ in 0..<20_000 {
            bodies.append(String((0..<Int(rng.next() % 11)).map { _ in letters[Int(rng.next() % UInt64(letters.count))] }))
        }
        for body in bodies {
            for (open, close) in [("\"", "\""), ("\"", ""), ("", "\"")] {
                for tail in ["", "}", ",\"score\":1}", "\"}"] {
                    let bytes = Array((open + body + close + tail).utf8)
                    bytes.withUnsafeBufferPointer { line in
                        var a = JSONCursor(line), b = JSONCursor(line)
                        XCTAssertEqual(a.fastLevel(), b.fastLevelByText(), "\(open)\(body)\(close)\(tail)")
                        XCTAssertEqual(a.pos, b.pos, "\(open)\(body)\(close)\(tail)")
                    }
                }
            }
        }
    }
}
