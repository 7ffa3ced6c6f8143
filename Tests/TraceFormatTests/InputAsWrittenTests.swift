import Foundation
import TestSupport
@testable import TraceCodec
@testable import TraceModel
import XCTest

/// Input is read as it was written: bytes inside a line stay that line's, a byte-order mark is not a
/// record's first byte, a list's CRLF ends a line, and a repeated key is not silently resolved.
final class InputAsWrittenTests: XCTestCase {
    var dir = ""
    override func setUp() { dir = Fixtures.tempDir() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    func write(_ name: String, _ bytes: [UInt8]) -> String {
        let path = dir + "/" + name
        _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
        return path
    }

    var goldenLines: [[UInt8]] {
        let text = try! String(contentsOfFile: Fixtures.trace("srtc-bluetooth-blocks-speaker.jsonl"), encoding: .utf8)
        return text.split(separator: "\n").map { Array($0.utf8) }
    }

    /// The 4 bytes of zstd's frame magic inside one line of a JSON Lines trace cost that line only
    /// (before, the whole file was read as garbage before a frame: 0 of 51 records).
    func test_zstdMagicInsideALineCostsThatLineOnly() throws {
        var lines = goldenLines
        XCTAssertEqual(lines.count, 51)
        let magic: [UInt8] = [0x28, 0xB5, 0x2F, 0xFD]
        // Inside the channel name of line 3, and a skippable frame's magic inside line 5.
        let channel = try XCTUnwrap(lines[2].firstRange(of: Array("support".utf8)))
        lines[2].insert(contentsOf: magic, at: channel.lowerBound)
        let t = try XCTUnwrap(lines[4].firstRange(of: Array("\"t\":".utf8)))
        lines[4].insert(contentsOf: [0x50, 0x2A, 0x4D, 0x18], at: t.lowerBound)
        let path = write("magic.jsonl", Array(lines.joined(separator: [0x0A])) + [0x0A])
        let (records, problems) = try Fixtures.readAll(path)
        XCTAssertEqual(records.count, 49, "\(problems)")
        XCTAssertEqual(problems.map(\.kind), [.badRecord, .badRecord], "\(problems)")
        XCTAssertEqual(problems.map(\.line), [3, 5])
    }

    /// A frame can still follow complete lines (the sniffer finds it after a newline), and a file that
    /// does not start like JSON keeps its resynchronisation at a frame anywhere.
    func test_aFrameMagicCountsAtTheStartOfALineOrAfterForeignBytes() {
        func kind(_ bytes: [UInt8]) -> ContainerKind { bytes.withUnsafeBufferPointer { ContainerKind.sniff($0) } }
        let magic: [UInt8] = [0x28, 0xB5, 0x2F, 0xFD, 0, 0]
        XCTAssertEqual(kind(Array("{\"seq\":0,\"x\":\"".utf8) + magic), .jsonLines)
        XCTAssertEqual(kind(Array("{\"seq\":0}\n".utf8) + magic), .zstdAfterGarbage)
        XCTAssertEqual(kind(Array("junk".utf8) + magic), .zstdAfterGarbage)
        XCTAssertEqual(kind([0xEF, 0xBB, 0xBF] + Array("{\"seq\":0}\n".utf8)), .jsonLines)
    }

    /// A UTF-8 byte-order mark before the header is skipped with a warning; every record is read
    /// (before, line 1 was a bad record and every command exited 65).
    func test_aByteOrderMarkBeforeTheFirstLineIsSkippedWithAWarning() throws {
        let lines = goldenLines
        let path = write("bom.jsonl", [0xEF, 0xBB, 0xBF] + Array(lines.joined(separator: [0x0A])) + [0x0A])
        let (records, problems) = try Fixtures.readAll(path)
        XCTAssertEqual(records.count, 51, "\(problems)")
        XCTAssertEqual(problems.map(\.kind), [.byteOrderMark])
        XCTAssertEqual(problems.first?.offset, 0)
        XCTAssertTrue(problems.first?.description.contains("bom.jsonl: byte 0: a UTF-8 byte-order mark") == true, "\(problems)")
        if case .header = records.first?.body {} else { XCTFail("the header is the first record: \(String(describing: records.first))") }
        XCTAssertFalse(problems[0].isDamage, "a warning: verify and --strict do not fail on it")
    }

    /// `@LIST` with CRLF line endings lists one path a line (before: one path, "a\r\nb").
    func test_aListWithCRLFLineEndingsIsOnePathALine() throws {
        let a = write("a.jsonl", Array("{}\n".utf8)), b = write("b.jsonl", Array("{}\n".utf8))
        let list = write("list.txt", Array("\(a)\r\n# a comment\r\n\r\n\(b)\r\n".utf8))
        let paths = try TriageInputs.expand(["@" + list])
        XCTAssertEqual((0..<paths.count).map { paths[$0] }, [a, b])
    }

    /// A key given twice in one object is a bad record naming the key, at the top level and nested; the
    /// general path and the fast path agree. expect.predictedBy's two `seq` members are the format's own.
    func test_duplicateKeysAreABadRecordNamingTheKey() throws {
        let cases: [(String, String)] = [
            (#"{"seq":1,"t":5,"type":"api.joinChannel","channel":"a","channel":"b"}"#, "channel"),
            (#"{"seq":1,"t":5,"t":6,"type":"api.leaveChannel"}"#, "t"),
            (#"{"seq":1,"t":5,"type":"sdk.log","level":"info","message":"x","message":"y"}"#, "message"),
            (#"{"seq":1,"t":5,"type":"srv.qualityReport","pub":{"level":"excellent","score":97,"mos":4.43,"mos":1,"loss":0.004,"rtt":32,"jitter":3,"bitrate":1263},"sub":{"level":"excellent","score":92,"mos":4.24,"loss":0.001,"rtt":35,"jitter":2,"bitrate":1466}}"#, "pub.mos"),
            (#"{"seq":1,"t":5,"type":"x.custom","a":1,"a":2}"#, "a"),
        ]
        for fastPath in [true, false] {
            let decoder = RecordDecoder(fastPath: fastPath)
            for (line, field) in cases {
                XCTAssertThrowsError(try decoder.decode(line), line) { error in
                    let e = error as? RecordDecodeError
                    XCTAssertEqual(e?.field, field, "\(error)")
                    XCTAssertEqual(e?.seq, 1)
                    XCTAssertTrue(e?.reason.contains("duplicate keys are refused") == true, "\(error)")
                }
            }
        }
        // Once each, they decode.
        XCTAssertNoThrow(try RecordDecoder().decode(#"{"seq":1,"t":5,"type":"api.joinChannel","channel":"b"}"#))
        let predicted = #"{"seq":7,"t":5,"type":"expect.predictedBy","ref":0,"rule":"R4","seq":3}"#
        let r = try RecordDecoder().decode(predicted)
        XCTAssertEqual(r.seq, 7)
        XCTAssertThrowsError(try RecordDecoder().decode(#"{"seq":7,"t":5,"type":"expect.predictedBy","ref":0,"ref":1,"rule":"R4","seq":3}"#))
        XCTAssertThrowsError(try RecordDecoder().decode(#"{"seq":7,"t":5,"type":"expect.predictedBy","ref":0,"rule":"R4","seq":3,"seq":4}"#))
    }

    /// The check of large objects (hash buckets, over 64 members) finds a repeat as the pairwise one does.
    func test_aRepeatAmongManyMembersIsFound() throws {
        let members = (0..<300).map { "\"k\($0)\":\($0)" }.joined(separator: ",")
        XCTAssertNoThrow(try RecordDecoder().decode(#"{"seq":1,"t":5,"type":"x.many","# + members + "}"))
        XCTAssertThrowsError(try RecordDecoder().decode(#"{"seq":1,"t":5,"type":"x.many","# + members + #","k150":0}"#)) { error in
            XCTAssertEqual((error as? RecordDecodeError)?.field, "k150")
        }
        // An escaped spelling is the same key.
        XCTAssertThrowsError(try RecordDecoder().decode(#"{"seq":1,"t":5,"type":"x.many","# + members + #","k\u0031":0}"#)) { error in
            XCTAssertEqual((error as? RecordDecodeError)?.field, "k1")
        }
    }
}
