@testable import TraceCodec
import TraceFixtures
import TraceModel
import XCTest

/// The kind table's derived facts, and the structural pass `cat` uses for lines it passes through.
final class SkimTests: XCTestCase {
    func test_familyIsTheTypeNamesPrefix() {
        for kind in RecordKind.allCases {
            XCTAssertEqual(kind.family.rawValue, String(kind.rawValue.prefix { $0 != "." }), kind.rawValue)
        }
    }

    /// Every kernel that runs on this CPU gives the reference loop's answer on `bytes` from `from`.
    @discardableResult
    private func agree(_ bytes: [UInt8], from: Int = 1, _ what: @autoclosure () -> String = "") -> Bool {
        bytes.withUnsafeBufferPointer { line in
            let expected = LineStructure.reference(line, from: from)
            for kernel in LineStructure.Kernel.allCases {
                guard let answer = LineStructure.closesObject(line, from: from, kernel: kernel) else { continue }
                XCTAssertEqual(answer, expected, "\(kernel) on \(String(decoding: bytes, as: UTF8.self).debugDescription) \(what())")
            }
            XCTAssertEqual(LineStructure.closesObject(line, from: from), expected, "the reader's kernel")
            return expected
        }
    }

    private func structure(_ text: String, from: Int = 1) -> Bool { agree(Array(text.utf8), from: from) }

    func test_theKernelsThisCPURunsIncludeThePortableOne() {
        XCTAssertTrue(LineStructure.runs(.portable))
        XCTAssertTrue(LineStructure.runs(LineStructure.standard))
        #if arch(x86_64)
        XCTAssertTrue(LineStructure.runs(.sse2))
        XCTAssertNotEqual(LineStructure.standard, .portable, "x86-64 always has SSE2")
        #endif
    }

    /// Lines of the bytes that matter (quotes, backslashes, brackets, control, blank and non-ASCII bytes)
    /// at random, of every length across the 64-byte blocks: every kernel gives the reference's answer.
    func test_kernelsAgreeWithTheReferenceOnRandomLines() {
        var g = SplitMix64(seed: 31)
        let alphabet: [UInt8] = Array(#""\{}[]ax:,0 "#.utf8) + [0x09, 0x0D, 0x01, 0x1F, 0x7F, 0x80, 0xC3, 0xFF]
        var closed = 0
        for n in 0..<20_000 {
            var bytes: [UInt8] = [UInt8(ascii: "{")]
            for _ in 0..<g.below(n % 7 == 0 ? 300 : 140) { bytes.append(g.pick(alphabet)) }
            if agree(bytes) { closed += 1 }
        }
        // Mostly broken lines, but not only: the accepting paths ran too.
        XCTAssertGreaterThan(closed, 0)
    }

    /// Well-formed lines with one byte changed, and runs of backslashes ending at every block edge.
    func test_kernelsAgreeOnDamagedLinesAndEscapesAtBlockEdges() {
        var g = SplitMix64(seed: 8)
        let base = Array(#"{"seq":12,"t":340,"type":"srv.speakers","speaking":[{"uid":"u1","trackId":"mic-u1","level":0.5},{"uid":"a\\\"b","trackId":"cam","level":1}],"stopped":["x[y]","{z}"]}"#.utf8)
        XCTAssertTrue(agree(base))
        let damage: [UInt8] = Array(#""\{}[] x"#.utf8) + [0x00, 0x09, 0x0D, 0x80]
        for i in 1..<base.count {
            for d in damage {
                var line = base
                line[i] = d
                agree(line, "byte \(i) set to \(d)")
            }
            agree(Array(base[..<i]), "cut at \(i)")
            _ = g.next()
        }
        for pad in 0..<130 {
            for run in 1...5 {
                let s = String(repeating: "x", count: pad)
                let slashes = String(repeating: "\\", count: run)
                XCTAssertEqual(structure(#"{"k":""# + s + slashes + #"","n":[1]}"#), run % 2 == 0, "\(run) backslashes after \(pad)")
                _ = structure(#"{"k":""# + s + slashes + #""}"# + s)
                _ = structure(#"{"k":1,"# + s + slashes + #""}"#)
            }
        }
    }

    /// Nesting up to the limit of 64 open containers, across blocks.
    func test_kernelsAgreeOnDeepNesting() {
        for depth in 60...66 {
            let open = String(repeating: "[", count: depth - 1)
            let close = String(repeating: "]", count: depth - 1)
            XCTAssertEqual(structure(#"{"a":"# + open + close + "}"), depth <= 64, "depth \(depth)")
            _ = structure(#"{"a":"# + open + "{" + #""b":1"# + "}" + close + "}")
            // Objects only, so whole blocks are counted rather than walked bracket by bracket.
            let objects = String(repeating: #"{"k":"#, count: depth - 1), ends = String(repeating: "}", count: depth - 1)
            XCTAssertEqual(structure(#"{"a":1,"b":"# + objects + "1" + ends + "}"), depth <= 64, "objects, depth \(depth)")
        }
        // An array opened in one block and closed as an object in the next, or the other way round.
        for pad in 50..<140 {
            let s = String(repeating: "x", count: pad)
            XCTAssertFalse(structure(#"{"a":[1,""# + s + #"",{"b":2}}}"#))
            XCTAssertFalse(structure(#"{"a":{"b":""# + s + #"",{"c":2}]}"#))
            XCTAssertTrue(structure(#"{"a":[1,""# + s + #"",{"b":2}]}"#))
            XCTAssertTrue(structure(#"{"a":{"b":""# + s + #"","c":{"d":2}}}"#))
            XCTAssertFalse(structure(#"{"a":{"b":""# + s + #""}}}"#), "closes past the line's object")
            XCTAssertFalse(structure(#"{"x":{"a":[1,""# + s + #""},"y":""# + s + s + #""}}"#), "an array closed as an object mid-line")
            XCTAssertTrue(structure(#"{"x":{"a":[1,""# + s + #""],"y":""# + s + s + #""}}"#))
        }
    }

    func test_structureAcceptsWellFormedLinesAndRejectsBrokenOnes() {
        let good = #"{"seq":1,"t":2,"type":"srv.speakers","speaking":[{"uid":"u1","trackId":"mic-u1","level":0.5}],"stopped":[]}"#
        XCTAssertTrue(structure(good))
        XCTAssertTrue(structure(good + "  \r"))
        XCTAssertTrue(structure(#"{"a":"x\"}]\\","b":[[{}]]}"#))
        for pad in 0..<40 {
            let s = String(repeating: "x", count: pad)
            XCTAssertTrue(structure(#"{"k":""# + s + #"","n":[1,2]}"#))
            XCTAssertFalse(structure(#"{"k":""# + s + #"","n":[1,2}"#), "mismatched bracket after \(pad)")
            XCTAssertFalse(structure(#"{"k":""# + s + #"","n":[1,2]"#), "unclosed object after \(pad)")
            XCTAssertFalse(structure(#"{"k":""# + s + "\u{01}" + #"","n":[1]}"#), "control byte in a string after \(pad)")
            XCTAssertFalse(structure(#"{"k":""# + s + "é" + #""}"#), "non-ASCII is left to the decoder")
            XCTAssertFalse(structure(#"{"k":""# + s + #""}} "#), "closes twice")
            XCTAssertFalse(structure(#"{"k":""# + s + #"}"#), "unterminated string")
        }
        XCTAssertFalse(structure(#"{"k":1} x"#))
        XCTAssertFalse(structure(#"{"k":1]"#))
    }

    /// The reader's skimmer gives the definition's answer on lines of every type, damaged byte by byte.
    func test_skimmerAgreesWithTheDefinition() {
        let skimmer = LineSkimmer()
        func check(_ bytes: [UInt8], _ what: @autoclosure () -> String = "") {
            bytes.withUnsafeBufferPointer { line in
                XCTAssertEqual(skimmer.skim(line), RecordDecoder.skim(line), "\(String(decoding: bytes, as: UTF8.self).debugDescription) \(what())")
            }
        }
        var lines = RecordKind.allCases.map { #"{"seq":12,"t":3456,"type":"\#($0.rawValue)","a":[1,{"b":"c"}]}"# }
        lines += [#"{"seq":0,"t":0,"type":"sdk.log"}"#, #"{"seq":1,"t":2,"type": "sdk.log","message":"x"}"#,
                  #"{"seq":1,"t":2,"type":"sdk.lo\g"}"#, #"{"seq":1,"t":2,"type":"sdk.log\"","m":1}"#,
                  #"{"seq":01,"t":2,"type":"sdk.log"}"#, #"{"seq":1,"t":2.5,"type":"sdk.log"}"#, #"{"seq":1,"t":2e3,"type":"sdk.log"}"#,
                  #"{"seq":1234567890123456789,"t":2,"type":"sdk.log"}"#, #"{"seq":2199023255552,"t":2,"type":"sdk.log"}"#,
                  #"{"seq":1,"t":9007199254740993,"type":"sdk.log"}"#, #"{"seq":1,"t":2,"type":"srv.qualityReportX"}"#,
                  #"{"seq":1,"t":2,"type":"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"}"#, #"{"seq":1,"t":2,"type":""}"#]
        // Numbers of every length, with a leading zero or a stray byte after them now and then.
        var g = SplitMix64(seed: 5)
        for _ in 0..<3_000 {
            func number() -> String {
                var digits = String((0..<g.below(21)).map { _ in Character(String(g.below(10))) })
                if g.chance(10) { digits += g.pick([".5", "e3", "E", "x", " "]) }
                return digits
            }
            check(Array((#"{"seq":"# + number() + #","t":"# + number() + #","type":"sdk.log","m":"x"}"#).utf8))
        }
        let damage: [UInt8] = Array(#""\{}[] x0.e"#.utf8) + [0x00, 0x09, 0x80]
        for text in lines {
            let base = Array(text.utf8)
            check(base)
            for i in base.indices {
                check(Array(base[..<i]), "cut at \(i)")
                for d in damage {
                    var line = base
                    line[i] = d
                    check(line, "byte \(i) set to \(d)")
                }
            }
        }
    }

    func test_skimReadsCanonicalHighRateLinesOnly() {
        func skim(_ text: String) -> SkimmedLine? {
            Array(text.utf8).withUnsafeBufferPointer { RecordDecoder.skim($0) }
        }
        XCTAssertEqual(skim(#"{"seq":7,"t":90,"type":"sdk.log","level":"info","message":"hi"}"#),
                       SkimmedLine(seq: 7, t: 90, kind: .sdkLog))
        XCTAssertNil(skim(#"{"seq":0,"t":0,"type":"trace.header","format":"rtctrace","version":1,"layer":"srtc"}"#), "not high-rate")
        XCTAssertNil(skim(#"{"t":90,"seq":7,"type":"sdk.log","level":"info","message":"hi"}"#), "not canonical")
        XCTAssertNil(skim(#"{"seq":7,"t":90,"type":"sdk.log","level":"info","message":"hi""#), "torn")
        XCTAssertNil(skim(#"{"seq":07,"t":90,"type":"sdk.log","level":"info","message":"hi"}"#), "leading zero")
    }
}
