import SystemLayer
import TraceModel

/// Looks up a record kind from the raw bytes of a `type` field without building a String: the names of
/// `RecordKind` grouped by length in plain allocations.
enum RecordKindLookup {
    /// A name of the table below: its bytes and its type.
    private struct Entry {
        var bytes: UnsafePointer<UInt8>
        var type: RecordKind
    }

    /// Candidates grouped by name length, so a lookup compares a handful of names at most. Plain
    /// allocations, made once and never freed: a lookup touches no reference count, so threads
    /// decoding at the same time do not contend on a shared array's header.
    nonisolated(unsafe) private static let table: (entries: UnsafeMutablePointer<Entry>, starts: UnsafeMutablePointer<Int>) = {
        let sorted = RecordKind.allCases.map { (Array($0.rawValue.utf8), $0) }.sorted { $0.0.count < $1.0.count }
        let entries = UnsafeMutablePointer<Entry>.allocate(capacity: sorted.count)
        let starts = UnsafeMutablePointer<Int>.allocate(capacity: 65)
        var next = 0
        for length in 0...64 {
            starts[length] = next
            while next < sorted.count && sorted[next].0.count == length {
                let p = UnsafeMutablePointer<UInt8>.allocate(capacity: length)
                p.initialize(from: sorted[next].0, count: length)
                entries[next] = Entry(bytes: UnsafePointer(p), type: sorted[next].1)
                next += 1
            }
        }
        return (entries, starts)
    }()

    /// The type named by these bytes, if it is one of the fixed-schema types.
    @inline(__always)
    static func lookup(_ name: UnsafeBufferPointer<UInt8>) -> RecordKind? {
        guard name.count < 64, let base = name.baseAddress else { return nil }
        let t = table
        for i in t.starts[name.count]..<t.starts[name.count + 1] where Memory.equal(t.entries[i].bytes, base, count: name.count) {
            return t.entries[i].type
        }
        return nil
    }
}
