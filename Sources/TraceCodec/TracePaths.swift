import SystemLayer

/// Paths in one byte buffer: a fleet's day is tens of thousands of paths, and a `String` each (with
/// an array of them and a set to drop duplicates) costs several times the bytes of the paths.
public struct PathList: Sendable {
    private var bytes: [UInt8] = []
    private var ends: [UInt32] = []

    /// An empty list.
    public init() {}

    /// How many paths.
    public var count: Int { ends.count }

    /// Appends a path.
    public mutating func append(_ path: String) {
        bytes.append(contentsOf: path.utf8)
        ends.append(UInt32(bytes.count))
    }

    /// The path at `i`.
    public subscript(i: Int) -> String {
        let start = i == 0 ? 0 : Int(ends[i - 1])
        return String(decoding: bytes[start..<Int(ends[i])], as: UTF8.self)
    }

    private func range(_ i: Int) -> Range<Int> { (i == 0 ? 0 : Int(ends[i - 1]))..<Int(ends[i]) }

    /// Whether path `i` sorts before path `j` (byte order, the same in every locale).
    func precedes(_ i: Int, _ j: Int) -> Bool { bytes[range(i)].lexicographicallyPrecedes(bytes[range(j)]) }

    /// Whether paths `i` and `j` are the same.
    func same(_ i: Int, _ j: Int) -> Bool { bytes[range(i)].elementsEqual(bytes[range(j)]) }
}

/// Turns command-line paths into the files a triage run covers.
public enum TriageInputs {
    /// File name endings a folder is searched for (`.trace.zst` and `.jsonl.zst` end in `.zst`).
    public static let traceSuffixes = [".jsonl", ".zst"]

    /// A command-line path that does not exist, or a list that cannot be read.
    public struct InputError: Error, Sendable, CustomStringConvertible {
        /// The message, naming the path.
        public var description: String
    }

    /// Expands paths: a file as given, a folder recursively (regular files ending in `.jsonl` or
    /// `.zst`, hidden names skipped, symbolic links to folders not followed, dangling links kept so
    /// that their rows say `unreadable`), `@LIST` as the paths in
    /// LIST, one a line (blank lines and `#` comments skipped; an entry that does not exist is kept,
    /// so that its row says so). Duplicates are dropped later, when the paths are sorted.
    public static func expand(_ arguments: [String]) throws -> PathList {
        var skipped: [String] = []
        return try expand(arguments, skipped: &skipped)
    }

    /// Expands paths as `expand(_:)` does, and adds to `skipped` every regular file a folder walk passed
    /// by because its name is not a trace name (a customer's `.jsonl.gz`, notes): no row is made for it.
    public static func expand(_ arguments: [String], skipped: inout [String]) throws -> PathList {
        var refused: [Refused] = []
        return try expand(arguments, skipped: &skipped, refused: &refused)
    }

    /// A file a folder walk did not open, and why: a FIFO, device or socket (reading one blocks), or a
    /// file of the kernel's (`/proc`, `/sys`: `/proc/kmsg` blocked triage forever).
    public struct Refused: Sendable, Equatable {
        public var path: String
        public var reason: String
    }

    /// Expands paths as `expand(_:skipped:)` does, and adds to `refused` every trace-named entry a
    /// folder walk would not open.
    public static func expand(_ arguments: [String], skipped: inout [String], refused: inout [Refused]) throws -> PathList {
        var out = PathList()
        var passed: [String] = [], notOpened: [Refused] = []
        defer { skipped += passed; refused += notOpened }
        func add(_ p: String) { out.append(p) }
        func visit(_ p: String) {
            if isDirectory(p) { walk(p, add, skipped: { passed.append($0) }, refused: { notOpened.append(Refused(path: $0, reason: $1)) }) } else { add(p) }
        }
        for a in arguments {
            if a.hasPrefix("@") && a.count > 1 {
                let list = String(a.dropFirst())
                let text: String?
                do { text = try SmallFile.text(list) } catch { throw InputError(description: "\(list): \(error)") }
                guard let text else { throw InputError(description: "\(list): no such list file") }
                // "\r\n" is one Character in Swift, so splitting on "\n" alone kept a CRLF list as one line.
                for line in text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
                    let entry = String(line)
                    if entry.allSatisfy({ $0 == " " || $0 == "\t" }) || entry.hasPrefix("#") { continue }
                    visit(entry)
                }
            } else {
                guard FileSystem.exists(a) else { throw InputError(description: "\(a): no such file or folder") }
                visit(a)
            }
        }
        return out
    }

    /// Whether `path` is (or links to) a folder.
    public static func isDirectory(_ path: String) -> Bool { FileSystem.isDirectory(path) }

    /// Whether `path` is (or links to) a regular file.
    public static func isRegularFile(_ path: String) -> Bool { (try? FileSystem.status(path))?.type == .regular }

    /// Every trace file below `dir`, recursively, in directory order. Links to folders are not followed
    /// (a link to `.` or `..` would loop or leave the tree); a link to nothing is kept, for its row.
    static func walk(_ dir: String, _ add: (String) -> Void, skipped: (String) -> Void, refused: (String, String) -> Void) {
        guard let names = try? FileSystem.entries(of: dir) else { return }
        var subdirs: [String] = []
        for name in names where !name.hasPrefix(".") {
            let path = dir.hasSuffix("/") ? dir + name : dir + "/" + name
            guard let st = try? FileSystem.status(path, followLinks: false) else { continue }
            if st.type == .directory { subdirs.append(path); continue }
            let isTraceName = traceSuffixes.contains(where: { name.hasSuffix($0) })
            if st.type == .symbolicLink && !FileSystem.exists(path) {
                // A dangling link (or a loop) is an upload that cannot be read: its row says so, as a
                // missing @LIST entry's does.
                if isTraceName { add(path) } else { skipped(path) }
                continue
            }
            // Only regular files (or links to them) outside the kernel's file systems: a pipe, a device
            // or /proc/kmsg would block the run.
            let target = st.type == .symbolicLink ? (try? FileSystem.status(path))?.type : st.type
            if target != .regular {
                if isTraceName, let why = notOpened(target) { refused(path, why) }
                continue
            }
            if let fs = FileSystem.kernelFileSystem(path) {
                if isTraceName { refused(path, "a kernel file (on \(fs)), not read") }
                continue
            }
            if isTraceName { add(path) } else { skipped(path) }
        }
        for s in subdirs { walk(s, add, skipped: skipped, refused: refused) }
    }

    /// Why a walk or a row does not open `path` (following links), or nil when it may: a FIFO, a
    /// device, a socket or a kernel file. A path that is not there may be tried (its row says so).
    public static func refusal(_ path: String) -> String? {
        guard let st = try? FileSystem.status(path) else { return nil }
        if st.type == .regular { return FileSystem.kernelFileSystem(path).map { "a kernel file (on \($0)), not read" } }
        return notOpened(st.type)
    }

    /// Why a walk does not open an entry of this type (nil for a link to nothing or to a folder).
    static func notOpened(_ type: FileType?) -> String? {
        switch type {
        case .fifo?: "not a regular file (a FIFO, a named pipe), not read: reading it would block"
        case .characterDevice?, .blockDevice?: "not a regular file (a device), not read"
        case .socket?: "not a regular file (a socket), not read"
        case .regular?, .directory?, .symbolicLink?, .unknown?, nil: nil
        }
    }
}
