import Glibc
import FuzzSupport
@_spi(Tools) import TraceCodec
import TraceModel

// The record decoder: each input line decoded; a record that decodes must re-encode to a line
// that decodes to the same record (the writer and the reader agree).
nonisolated(unsafe) let decoder = ToolsRecordDecoder()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDecoder(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data else { return 0 }
    let all = UnsafeBufferPointer(start: data, count: size)
    var start = 0
    var lineNumber = 0
    while start <= size {
        var end = start
        while end < size && all[end] != 0x0A { end += 1 }
        lineNumber += 1
        let line = UnsafeBufferPointer(rebasing: all[start..<end])
        do {
            let r = try decoder.decode(line, lineNumber: lineNumber)
            var w = JSONWriter()
            r.encode(into: &w)
            let again = try decoder.decode(w.bytes)
            if case .unknown = r.body {} else { precondition(again == r, "re-encoded record decodes differently") }
        } catch {
            _ = "\(error)"
        }
        start = end + 1
    }
    return 0
}

@main
enum FuzzDecoder {
    static func main() { exit(runFuzzer(fuzzDecoder)) }
}
