import Glibc
import FuzzSupport
@_spi(Tools) import Replay
@_spi(Tools) import Reports
@_spi(Tools) import TraceCodec
@_spi(Tools) import Workflows

// The whole pipeline: bytes as a trace, replayed through both engines with the timeline observed,
// then rendered by every report (text, JSON, timeline, quality, golden check, JUnit).
nonisolated(unsafe) let file = MemoryFile()
let limits = ToolsReaderLimits(maxWindowLog: 20, maxLineBytes: 64 << 10, holdBytes: 64 << 10)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzReplay(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data else { return 0 }
    file.set(UnsafeRawBufferPointer(start: data, count: size))
    var rendered = 0
    guard let result = try? ToolsReplay.run(path: file.path, limits: limits, observer: { step in
        rendered &+= ToolsReports.timelineLine(step).utf8.count &+ ToolsReports.timelineJSON(step).utf8.count
    }) else { return 0 }
    rendered &+= ToolsReports.explainText(result).utf8.count &+ ToolsReports.explainText(result, colour: true).utf8.count
    rendered &+= ToolsReports.explainJSON(result).utf8.count &+ ToolsReports.explainJSON(result, golden: true, pretty: true).utf8.count
    rendered &+= ToolsReports.divergences(result).utf8.count
    if let q = ToolsReports.qualityText(result) { rendered &+= q.line.utf8.count &+ q.block.utf8.count }
    rendered &+= ToolsGoldenCheck.junit(checking: file.path).utf8.count
    return rendered == -1 ? 1 : 0
}

@main
enum FuzzReplay {
    static func main() { exit(runFuzzer(fuzzReplay)) }
}
