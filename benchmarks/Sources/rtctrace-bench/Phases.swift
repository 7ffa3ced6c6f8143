@_spi(Tools) import Analysis
import BenchSupport
import CZstdBench
@_spi(Tools) import Replay
@_spi(Tools) import Reports
import SystemLayer
@_spi(Tools) import TraceCodec

/// `rtctrace-bench phases TRACE [RUNS]`: the read path of `explain --json` cut into its phases, each timed
/// (process CPU and wall, best of RUNS) as the difference between two passes over the whole trace that
/// stop one stage apart: decompression (libzstd alone), split (the container: frames checked, lines held
/// until their checksum passes), decode (records), replay without an observer and with one (steps built
/// and dropped), then the explanation and the rendering of the result, timed on their own. One JSON object.
enum Phases {
    struct Time {
        var cpu = Double.infinity
        var wall = Double.infinity
    }

    /// The best of `runs` runs of `body`.
    static func best(_ runs: Int, _ body: () throws -> Void) rethrows -> Time {
        var t = Time()
        for _ in 0..<runs {
            let c0 = Clock.processCPUSeconds(), w0 = Clock.monotonicSeconds()
            try body()
            t.cpu = min(t.cpu, Clock.processCPUSeconds() - c0)
            t.wall = min(t.wall, Clock.monotonicSeconds() - w0)
        }
        return t
    }

    /// Decompresses every frame of the file into one reused buffer (checksums verified by libzstd, as the
    /// reader has them verified); returns the decompressed bytes.
    static func decompress(_ path: String) throws -> Int {
        let file = try OpenFile(path, .readOnly)
        defer { try? file.close() }
        guard let dctx = ZSTD_createDCtx() else { fail("no zstd context") }
        defer { ZSTD_freeDCtx(dctx) }
        var input = [UInt8](repeating: 0, count: 1 << 20), output = [UInt8](repeating: 0, count: 1 << 20)
        var total = 0
        while true {
            let n = try input.withUnsafeMutableBytes { try file.read(into: $0) }
            if n == 0 { return total }
            try input.withUnsafeBytes { inp in
                var src = ZSTD_inBuffer(src: inp.baseAddress, size: n, pos: 0)
                while src.pos < src.size {
                    let produced = output.withUnsafeMutableBytes { out -> Int in
                        var dst = ZSTD_outBuffer(dst: out.baseAddress, size: out.count, pos: 0)
                        let rc = ZSTD_decompressStream(dctx, &dst, &src)
                        return ZSTD_isError(rc) != 0 ? -1 : dst.pos
                    }
                    guard produced >= 0 else { throw BenchFailure.zstd }
                    total += produced
                }
            }
        }
    }

    enum BenchFailure: Error { case zstd }

    static func run(path: String, runs: Int) throws {
        var rawBytes = 0, records = 0, steps = 0
        let decompression = try best(runs) { rawBytes = try decompress(path) }
        let split = try best(runs) {
            var lines = 0
            _ = try ToolsTraceReader(path: path).forEachUndecodedLine { _ in lines += 1 }
            records = lines
        }
        let decode = try best(runs) { _ = try ToolsTraceReader(path: path).forEach(record: { _ in }) }
        var result: ToolsReplayResult?
        let replay = try best(runs) { result = try ReplayEntry.run(path: path) }
        let observed = try best(runs) { _ = try ReplayEntry.run(path: path) { _ in steps += 1 } }
        guard let result else { fail("no replay") }
        var explanation: ToolsExplanation?
        let explained = best(runs) { explanation = ToolsExplanation(result) }
        var jsonBytes = 0
        let rendering = best(runs) { jsonBytes = ToolsReports.explainJSON(result).utf8.count }
        _ = explanation
        func phase(_ name: String, _ t: Time, minus before: Time? = nil) -> String {
            let cpu = t.cpu - (before?.cpu ?? 0), wall = t.wall - (before?.wall ?? 0)
            return "\"\(name)\":{\"cpuSeconds\":\(cpu),\"wallSeconds\":\(wall),\"recordsPerSec\":\(Double(records) / cpu),"
                + "\"megabytesPerSec\":\(Double(rawBytes) / 1e6 / cpu),\"throughCpuSeconds\":\(t.cpu),\"throughWallSeconds\":\(t.wall)}"
        }
        let phases = [
            phase("decompression", decompression), phase("split", split, minus: decompression), phase("decode", decode, minus: split),
            phase("replay", replay, minus: decode), phase("replayObserved", observed, minus: decode),
            phase("explanation", explained), phase("rendering", rendering),
        ]
        print("{\"records\":\(records),\"rawBytes\":\(rawBytes),\"steps\":\(steps / max(runs, 1)),\"jsonBytes\":\(jsonBytes),"
              + "\"phases\":{" + phases.joined(separator: ",") + "}}")
    }
}
