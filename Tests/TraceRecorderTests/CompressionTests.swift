import CZstd
import Foundation
import TestSupport
@testable import TraceCodec
@testable import TraceRecorder
import XCTest

/// The three ways a recorder makes frames (libzstd, a compressor the SDK passes in, the project's own
/// encoder of stored blocks): each writes frames every zstd reader reads, `zstd -dc` included, and
/// the frame-structure walk the recorder repairs with reads them all.
final class CompressionTests: XCTestCase {
    var dir = ""
    override func setUp() { dir = Support.tempDir() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    /// Deterministic bytes that look like trace lines, `n` of them.
    func lines(_ n: Int, seed: UInt64 = 1) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(n)
        var x = seed
        while out.count < n {
            x = x &* 6364136223846793005 &+ 1442695040888963407
            out += Array("{\"seq\":\(x % 1000),\"t\":\(x >> 40),\"type\":\"sdk.log\",\"message\":\"\(String(x, radix: 36))\"}\n".utf8)
        }
        return Array(out.prefix(n))
    }

    /// libzstd's decompression of one frame, with its content checksum verified.
    func zstdDecompress(_ frame: ArraySlice<UInt8>, size: Int) throws -> [UInt8] {
        var out = [UInt8](repeating: 0, count: max(size, 1))
        let n = frame.withUnsafeBytes { src in out.withUnsafeMutableBytes { ZSTD_decompress($0.baseAddress, $0.count, src.baseAddress, src.count) } }
        guard ZSTD_isError(n) == 0 else { throw CompressionError(String(cString: ZSTD_getErrorName(n))) }
        return Array(out.prefix(n))
    }

    func test_storedFrames_areReadByLibzstd_checksumVerified_atEverySizeBoundary() throws {
        let encoder = FrameEncoder(StoredFrameCompressor())
        XCTAssertTrue(encoder.stores)
        for n in [0, 1, 31, 32, 33, 255, 256, 1000, 65_791, 65_792, 131_071, 131_072, 131_073, 300_000] {
            let input = lines(n, seed: UInt64(n))
            let frame = try input.withUnsafeBytes { try encoder.frame($0) }
            XCTAssertEqual(frame.count, StoredFrameCompressor().maxFrameSize(forInput: n) - (n <= 255 ? 7 : n <= 65_791 ? 6 : 4),
                           "header, block headers and checksum, no more (\(n))")
            XCTAssertEqual(try zstdDecompress(frame, size: n), input, "\(n) bytes")
            var corrupt = Array(frame)
            corrupt[corrupt.count - 1] ^= 1
            XCTAssertThrowsError(try zstdDecompress(corrupt[...], size: n), "a wrong checksum is caught (\(n))")
            frame.withUnsafeBytes { p in
                XCTAssertEqual(FrameStructure.extent(of: p, at: 0), .data(length: frame.count, checksummed: true))
                XCTAssertEqual(FrameStructure.startsWithStoredBlock(p), true)
            }
        }
    }

    func test_xxh64_ofKnownInputs() {
        XCTAssertEqual([UInt8]().withUnsafeBytes { XXH64.hash($0) }, 0xEF46_DB37_51D8_E999)
        // Every other length is checked against libzstd above (the checksum of each stored frame).
    }

    func test_frameStructure_wholeTruncatedAndInvalid_forLibzstdFramesOfManyBlocks() throws {
        let z = try SystemZstdCompressor(level: 3)
        var noise = [UInt8](repeating: 0, count: 400_000)
        var x: UInt64 = 7
        for i in noise.indices { x = x &* 6364136223846793005 &+ 1; noise[i] = UInt8(truncatingIfNeeded: x >> 33) }
        for input in [lines(500_000), noise, []] {
            let frame = Array(try input.withUnsafeBytes { try z.frame($0) })
            frame.withUnsafeBytes { p in
                XCTAssertEqual(FrameStructure.extent(of: p, at: 0), .data(length: frame.count, checksummed: true))
                XCTAssertEqual(FrameStructure.startsWithStoredBlock(p), input.count != 500_000, "libzstd stores noise, and the empty frame, in raw blocks")
            }
            for cut in stride(from: 0, to: frame.count, by: max(1, frame.count / 97)) {
                frame[..<cut].withUnsafeBytes { p in
                    XCTAssertEqual(FrameStructure.extent(of: p, at: 0), cut == 0 ? .invalid : .truncated, "cut at \(cut)")
                }
            }
        }
        let mark = TraceMark.frameIndex(lastSeq: 41, lastT: 9000).frame
        mark.withUnsafeBytes { p in
            guard case let .skippable(length, magic, payload) = FrameStructure.extent(of: p, at: 0) else { return XCTFail() }
            XCTAssertEqual(length, mark.count)
            XCTAssertEqual(TraceMark.parse(magic: magic, payload: mark[payload]), .frameIndex(lastSeq: 41, lastT: 9000))
        }
        Array("{\"seq\":0}".utf8).withUnsafeBytes { XCTAssertEqual(FrameStructure.extent(of: $0, at: 0), .invalid) }
    }

    /// Records a short session with `compression` and returns the closed part's path.
    func recordSession(_ compression: RecorderConfiguration.Compression, in sub: String, logs: LogSink? = nil) throws -> String {
        let clock = ManualClock()
        var c = RecorderConfiguration(directory: dir + "/" + sub, layer: .srtc, sdk: "SRTC 5.1.0")
        c.clock = clock
        c.compression = compression
        c.log = logs?.add
        c.frame = .init(records: 16, milliseconds: 2000)
        let r = TraceRecorder(c)
        r.record(.joinChannel(channel: "c"))
        for i in 0..<100 {
            clock.advance(milliseconds: 20)
            r.record(.sdkLog(level: "debug", message: "frame line \(i) jitter=\(i % 17) ms"))
        }
        r.record(.leaveChannel)
        XCTAssertTrue(r.close(timeout: 20))
        let files = Support.traceFiles(dir + "/" + sub)
        XCTAssertEqual(files.count, 1)
        return dir + "/" + sub + "/" + files[0]
    }

    func test_everyPath_writesATraceThatZstdAndTheReaderReadAlike() throws {
        let before = SDKZstd.frames
        let paths = [("system", try recordSession(.automatic, in: "system")),
                     ("stored", try recordSession(.stored, in: "stored")),
                     ("injected", try recordSession(.custom { SDKZstd() }, in: "injected"))]
        XCTAssertGreaterThan(SDKZstd.frames - before, 5, "the injected compressor made the frames")
        var sizes: [String: Int] = [:]
        for (name, path) in paths {
            let (records, problems) = try Support.read(path)
            XCTAssertEqual(problems, [], name)
            XCTAssertEqual(records.count, 103, name)
            let out = runProcess("/usr/bin/env", ["zstd", "-dc", path])
            XCTAssertEqual(out.status, 0, "\(name): zstd -dc: \(String(decoding: out.err, as: UTF8.self))")
            let text = String(decoding: out.out, as: UTF8.self)
            XCTAssertEqual(text, records.map { $0.jsonLine + "\n" }.joined(), "\(name): zstd -dc prints the trace's lines")
            sizes[name] = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        }
        XCTAssertGreaterThan(sizes["stored"]!, 2 * sizes["system"]!, "stored blocks are not compressed: \(sizes)")
        // `rtctrace info` says which trace is uncompressed.
        let rtctrace = Executables.built("rtctrace")
        let stored = runProcess(rtctrace, ["info", paths[1].1])
        XCTAssertTrue(String(decoding: stored.out, as: UTF8.self).contains("stored    uncompressed: all"), String(decoding: stored.out, as: UTF8.self))
        let compressed = runProcess(rtctrace, ["info", paths[0].1])
        XCTAssertFalse(String(decoding: compressed.out, as: UTF8.self).contains("uncompressed"))
    }

    /// A compressor passed in that breaks (an error, or bytes that are no zstd frame): the recorder says
    /// so once and stores the rest uncompressed; the trace stays whole.
    final class Broken: TraceCompressor {
        var calls = 0
        func maxFrameSize(forInput count: Int) -> Int { count + 64 }
        func compressFrame(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) throws -> Int {
            calls += 1
            if calls == 1 { throw CompressionError("no luck") }
            for i in 0..<16 { output[i] = UInt8(i) }
            return 16
        }
    }

    func test_aCompressorPassedInThatFails_fallsBackToStoredFrames_theTraceStaysWhole() throws {
        let logs = LogSink()
        let path = try recordSession(.custom { Broken() }, in: "broken", logs: logs)
        let (records, problems) = try Support.read(path)
        XCTAssertEqual(problems, [])
        XCTAssertEqual(records.count, 103)
        XCTAssertEqual(logs.entries.filter { $0.level == .warning }.count, 1, "\(logs.messages)")
        XCTAssertTrue(logs.messages[0].contains("frames from here on are stored uncompressed"), logs.messages[0])
    }
}
