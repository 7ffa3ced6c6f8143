import Foundation
import TestSupport
@testable import TraceCodec
@testable import TraceModel
import XCTest

/// The container is recognised by what is in the file, not by its first four bytes alone: damage at
/// the start and bogus skippable frames cost only the frames they hit.
final class SniffingTests: XCTestCase {
    var dir = ""
    override func setUp() { dir = Fixtures.tempDir() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    /// A trace of known records written in frames of `frameRecords`; returns its bytes.
    func trace(_ count: Int, frameRecords: Int) throws -> (records: [Record], bytes: Data) {
        let records = Fixtures.records(count).filter { if case .unknown = $0.body { false } else { true } }
            .enumerated().map { Record(seq: $0.offset, t: $0.element.t, $0.element.body) }
        let path = dir + "/src.trace.zst"
        let w = try TraceWriter(path: path, options: .init(frameRecords: frameRecords, frameBytes: 1 << 30, level: 3))
        for r in records { try w.append(r) }
        try w.close()
        return (records, try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    func read(_ bytes: Data) throws -> (records: [Record], problems: [TraceProblem]) {
        let path = dir + "/damaged.trace.zst"
        try bytes.write(to: URL(fileURLWithPath: path))
        return try Fixtures.readAll(path)
    }

    func test_aFlippedByteInTheFirstFourBytesLosesOnlyWhatItHits() throws {
        let (records, bytes) = try trace(40, frameRecords: 5)
        for offset in 0..<4 {
            var d = bytes
            d[offset] ^= 0x41
            let (got, problems) = try read(d)
            XCTAssertGreaterThanOrEqual(got.count, records.count - 5, "byte \(offset): \(problems)")
            XCTAssertEqual(Array(records.suffix(got.count)), got, "byte \(offset): records are a suffix of the trace")
            XCTAssertFalse(problems.isEmpty, "byte \(offset): the damage is reported")
        }
    }

    func test_garbageBeforeTheFirstFrameIsSkipped_andEveryRecordRead() throws {
        let (records, bytes) = try trace(30, frameRecords: 7)
        let (got, problems) = try read(Data("not a frame\u{1}\u{2}".utf8) + bytes)
        XCTAssertEqual(got, records)
        XCTAssertEqual(problems.map(\.kind), [.garbage])
        XCTAssertEqual(problems.first?.offset, 0)
    }

    func test_aSkippableFrameWhoseSizeRunsPastTheEndDoesNotHideTheFramesAfterIt() throws {
        let (records, bytes) = try trace(30, frameRecords: 7)
        var bogus = Data([0x50, 0x2A, 0x4D, 0x18])
        bogus.append(contentsOf: [0x00, 0x00, 0x00, 0x10]) // 256 MiB, far past the end
        let (got, problems) = try read(bogus + bytes)
        XCTAssertEqual(got, records)
        XCTAssertTrue(problems.contains { $0.kind == .badFrame && $0.message.contains("past the end of the file") }, "\(problems)")
    }

    func test_archivesAreNamedWithWhatToDo() throws {
        let cases: [([UInt8], String)] = [
            ([0x1F, 0x8B, 0x08, 0x00], "gunzip it first"), ([0x50, 0x4B, 0x03, 0x04], "unzip it first"),
            ([0x42, 0x5A, 0x68, 0x39], "bunzip2 it first"), ([0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00], "unxz it first"),
        ]
        for (magic, advice) in cases {
            let (got, problems) = try read(Data(magic + Array(repeating: 0x20, count: 64)))
            XCTAssertEqual(got, [])
            XCTAssertEqual(problems.first?.kind, .notATrace)
            XCTAssertTrue(problems.first?.message.contains(advice) == true, "\(problems)")
        }
    }

    func test_textThatIsNeitherFramesNorJSONIsNotATrace() throws {
        let (got, problems) = try read(Data("hello, this is a log file\nline two\n".utf8))
        XCTAssertEqual(got, [])
        XCTAssertEqual(problems.map(\.kind), [.notATrace])
    }

    func test_sniffingClassifiesTheFirstBytes() {
        func kind(_ bytes: [UInt8]) -> ContainerKind { bytes.withUnsafeBufferPointer { ContainerKind.sniff($0) } }
        XCTAssertEqual(kind(Array("{\"seq\":0}\n".utf8)), .jsonLines)
        XCTAssertEqual(kind(Array("  \n{\"seq\":0}\n".utf8)), .jsonLines)
        XCTAssertEqual(kind([]), .jsonLines)
        XCTAssertEqual(kind([0x28, 0xB5, 0x2F, 0xFD, 0, 0]), .zstd)
        XCTAssertEqual(kind([0x29, 0xB5, 0x2F, 0xFD, 0, 0, 0x28, 0xB5, 0x2F, 0xFD]), .zstdAfterGarbage)
        XCTAssertEqual(kind(Array("hello".utf8)), .unknown)
    }
}
