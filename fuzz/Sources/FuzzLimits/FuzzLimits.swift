import Glibc
import FuzzSupport
import Replay
import Analysis
import CommandLineKit
import Reports
import TraceCodec
import TraceModel

// Timestamps and numbers pushed towards their limits: the input's first byte picks a boundary value
// and which numeric fields it replaces (every k-th number written right after a ':'), the rest is a
// trace. The whole pipeline then runs, as in FuzzReplay: no value may trap (deadlines saturate, the
// decoder rejects t outside 0…2^53, option-like windows stay bounded).
nonisolated(unsafe) let file = MemoryFile()
let limits = ReaderLimits(maxWindowLog: 20, maxLineBytes: 64 << 10, holdBytes: 64 << 10)
let boundaries: [String] = ["0", "-1", "9007199254740992", "9007199254740993", "9007199254740991",
                            "9223372036854775807", "-9223372036854775808", "9223372036854775806", "2147483648",
                            "4294967296", "1e308", "-0", "18446744073709551615", "1.7976931348623157e308"]

/// The trace with every `stride`-th number after a ':' replaced by `value`.
func pushed(_ trace: UnsafeRawBufferPointer, value: String, stride: Int) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(trace.count + 64)
    var i = 0, seen = 0
    while i < trace.count {
        let c = trace[i]
        out.append(c)
        i += 1
        guard c == UInt8(ascii: ":"), i < trace.count, trace[i] == UInt8(ascii: "-") || (trace[i] >= 0x30 && trace[i] <= 0x39) else { continue }
        var j = i + 1
        while j < trace.count, (trace[j] >= 0x30 && trace[j] <= 0x39) || trace[j] == UInt8(ascii: ".") { j += 1 }
        seen += 1
        if seen % stride == 0 {
            out += Array(value.utf8)
            i = j
        }
    }
    return out
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLimits(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data, size > 1 else { return 0 }
    let control = data[0]
    let value = boundaries[Int(control) % boundaries.count]
    let stride = 1 + Int(control >> 4)
    let bytes = pushed(UnsafeRawBufferPointer(start: data + 1, count: size - 1), value: value, stride: stride)
    var rendered = 0
    bytes.withUnsafeBytes { file.set($0) }
    guard let result = try? Replay.run(TraceSession(path: file.path), limits: limits, observer: { step in
        rendered &+= TimelineText.line(step).utf8.count &+ TimelineText.json(step).utf8.count
    }) else { return 0 }
    rendered &+= ExplainText.render(result).utf8.count &+ ResultJSON.render(result).utf8.count
    let lanes = ReportLanes(), recorder = ChromeTraceRecorder()
    let observed = (try? Replay.run(TraceSession(path: file.path), limits: limits, observer: { lanes.observe($0); recorder.observe($0) })) ?? result
    rendered &+= HTMLReport.render(observed, lanes: lanes.lanes(for: observed)).utf8.count
    rendered &+= ChromeTrace.render(observed, recorder: recorder).utf8.count
    return rendered == -1 ? 1 : 0
}

@main
enum FuzzLimits {
    static func main() { exit(runFuzzer(fuzzLimits)) }
}
