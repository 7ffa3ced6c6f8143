import Glibc
import FuzzSupport
import Replay
import Analysis
import CommandLineKit
import Reports
import TraceCodec
import TraceModel
import Workflows

// The whole pipeline: bytes as a trace, replayed through both engines with the timeline observed,
// then rendered by every report (text, JSON, timeline, quality, golden check, JUnit).
nonisolated(unsafe) let file = MemoryFile()
let limits = ReaderLimits(maxWindowLog: 20, maxLineBytes: 64 << 10, holdBytes: 64 << 10)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzReplay(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data else { return 0 }
    file.set(UnsafeRawBufferPointer(start: data, count: size))
    var rendered = 0
    guard let result = try? Replay.run(TraceSession(path: file.path), limits: limits, observer: { step in
        rendered &+= TimelineText.line(step).utf8.count &+ TimelineText.json(step).utf8.count
    }) else { return 0 }
    rendered &+= ExplainText.render(result).utf8.count &+ ExplainText.render(result, colour: true).utf8.count
    rendered &+= ResultJSON.render(result).utf8.count &+ ResultJSON.render(result, golden: true, pretty: true).utf8.count
    rendered &+= TimelineText.divergences(result).utf8.count
    if let q = result.quality { rendered &+= QualityText.oneLine(q).utf8.count &+ QualityText.block(q, findings: result.findingCounts).utf8.count }
    let outcome = GoldenCheck.check(TraceSession(path: file.path))
    rendered &+= JUnitXML.render([outcome]).utf8.count
    return rendered == -1 ? 1 : 0
}

@main
enum FuzzReplay {
    static func main() { exit(runFuzzer(fuzzReplay)) }
}
