/// A check outcome as bytes, for a replay run in a child process: `rtctrace check` checks each trace
/// in its own process, so that a replay that traps fails that trace alone, never the run.
///
/// The form is a header line, then fields `NAME LENGTH\n` + LENGTH bytes + `\n`; no field needs
/// escaping and a cut-off message is detected (a missing `end` field).
extension CheckOutcome {
    static let wireHeader = "rtctrace-check-outcome 1\n"

    /// The outcome in the wire form.
    public var wireEncoded: [UInt8] {
        var out = Array(Self.wireHeader.utf8)
        func field(_ name: String, _ value: String) {
            out += Array("\(name) \(value.utf8.count)\n".utf8) + Array(value.utf8) + [0x0A]
        }
        field("expectations", String(expectations))
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
    public init?(wire bytes: [UInt8], file: String) {
        self.init(file: file)
        guard bytes.starts(with: Array(Self.wireHeader.utf8)) else { return nil }
        var i = Self.wireHeader.utf8.count
        var snapshotKind = "none", diff = ""
        while i < bytes.count {
            guard let space = bytes[i...].firstIndex(of: 0x20), let newline = bytes[space...].firstIndex(of: 0x0A),
                  let length = Int(String(decoding: bytes[(space + 1)..<newline], as: UTF8.self)),
                  length >= 0, newline + 1 + length < bytes.count, bytes[newline + 1 + length] == 0x0A else { return nil }
            let name = String(decoding: bytes[i..<space], as: UTF8.self)
            let value = String(decoding: bytes[(newline + 1)..<(newline + 1 + length)], as: UTF8.self)
            i = newline + 2 + length
            switch name {
            case "expectations": expectations = Int(value) ?? 0
            case "snapshot": snapshotKind = value
            case "diff": diff = value
            case "failure": failures.append(value)
            case "rendered": rendered = value
            case "end":
                snapshot = snapshotKind == "matched" ? .matched : snapshotKind == "changed" ? .changed(diff: diff) : .none
                return
            default: break
            }
        }
        return nil
    }
}
