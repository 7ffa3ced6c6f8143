/// A check outcome as bytes, for a replay run in a child process: `rtctrace check` checks traces in
/// worker processes, so that a replay that traps fails that trace alone, never the run. A worker
/// writes one outcome per trace, one after another.
///
/// The form is a header line, then fields `NAME LENGTH\n` + LENGTH bytes + `\n`; no field needs
/// escaping and a cut-off message is detected (a missing `end` field).
import Analysis
extension CheckOutcome {
    package static let wireHeader = "rtctrace-check-outcome 1\n"

    /// The outcome in the wire form.
    package var wireEncoded: [UInt8] {
        var out = Array(Self.wireHeader.utf8)
        func field(_ name: String, _ value: String) {
            out += Array("\(name) \(value.utf8.count)\n".utf8) + Array(value.utf8) + [0x0A]
        }
        field("expectations", String(expectations))
        if let session { field("session", session) }
        switch snapshot {
        case .none: field("snapshot", "none")
        case .matched: field("snapshot", "matched")
        case .changed(let diff): field("snapshot", "changed"); field("diff", diff)
        }
        for f in failures { field("failure", f) }
        field("rendered", rendered)
        field("end", "")
        return out
    }

    /// Reads an outcome of `file` back from the wire form; nil when the bytes are not a complete one.
    package init?(wire bytes: [UInt8], file: String) {
        guard let (outcome, _) = Self.decode(wire: bytes[...], file: file) else { return nil }
        self = outcome
    }

    /// Reads the outcomes a worker wrote one after another, for `files` in order: as many as are
    /// complete (a worker that crashed leaves fewer than `files`, the last cut off or missing).
    package static func decodeAll(wire bytes: [UInt8], files: [String]) -> [CheckOutcome] {
        var out: [CheckOutcome] = []
        var rest = bytes[...]
        for file in files {
            guard let (outcome, used) = decode(wire: rest, file: file) else { break }
            out.append(outcome)
            rest = rest.dropFirst(used)
        }
        return out
    }

    /// One outcome at the start of `bytes`, and how many bytes it took.
    package static func decode(wire bytes: ArraySlice<UInt8>, file: String) -> (CheckOutcome, Int)? {
        var o = CheckOutcome(file: file)
        guard bytes.starts(with: Array(Self.wireHeader.utf8)) else { return nil }
        var i = bytes.startIndex + Self.wireHeader.utf8.count
        var snapshotKind = "none", diff = ""
        while i < bytes.endIndex {
            guard let space = bytes[i...].firstIndex(of: 0x20), let newline = bytes[space...].firstIndex(of: 0x0A),
                  let length = Int(String(decoding: bytes[(space + 1)..<newline], as: UTF8.self)),
                  length >= 0, length < bytes.endIndex - newline - 1, bytes[newline + 1 + length] == 0x0A else { return nil }
            let name = String(decoding: bytes[i..<space], as: UTF8.self)
            let value = String(decoding: bytes[(newline + 1)..<(newline + 1 + length)], as: UTF8.self)
            i = newline + 2 + length
            switch name {
            case "expectations": o.expectations = Int(value) ?? 0
            case "session": o.session = value
            case "snapshot": snapshotKind = value
            case "diff": diff = value
            case "failure": o.failures.append(value)
            case "rendered": o.rendered = value
            case "end":
                o.snapshot = snapshotKind == "matched" ? .matched : snapshotKind == "changed" ? .changed(diff: diff) : .none
                return (o, i - bytes.startIndex)
            default: break
            }
        }
        return nil
    }
}
