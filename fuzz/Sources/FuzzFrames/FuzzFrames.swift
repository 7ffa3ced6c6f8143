import Glibc
import FuzzSupport
@_spi(Tools) import TraceCodec
import TraceModel

// The frame reader: arbitrary bytes as a trace file (zstd frames or plain text), read to the end
// under small limits so that limit paths are reached often.
nonisolated(unsafe) let file = MemoryFile()
let limits = ToolsReaderLimits(maxWindowLog: 20, maxLineBytes: 64 << 10, holdBytes: 64 << 10)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFrames(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data else { return 0 }
    file.set(UnsafeRawBufferPointer(start: data, count: size))
    guard let reader = try? ToolsTraceReader(path: file.path, limits: limits) else { return 0 }
    var records = 0, problems = 0
    while let e = reader.next() {
        switch e {
        case .record: records += 1
        case .problem(let description): problems += 1; _ = description
        }
    }
    precondition(records == reader.recordCount)
    return 0
}

@main
enum FuzzFrames {
    static func main() { exit(runFuzzer(fuzzFrames)) }
}
