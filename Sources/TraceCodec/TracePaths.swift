import SystemLayer

/// Paths in one byte buffer: a fleet's day is tens of thousands of paths, and a `String` each (with
/// an array of them and a set to drop duplicates) costs several times the bytes of the paths.
package struct PathList: Sendable {
    private var bytes: [UInt8] = []
    private var ends: [UInt32] = []

    /// An empty list.
    package init() {}

    /// How many paths.
    package var count: Int { ends.count }

    /// Appends a path.
    package mutating func append(_ path: String) {
        bytes.append(contentsOf: path.utf8)
        ends.append(UInt32(bytes.count))
    }

    /// The path at `i`.
    package subscript(i: Int) -> String {
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
package enum TriageInputs {
    /// File name endings a folder is searched for (`.trace.zst` and `.jsonl.zst` end in `.zst`; a
    /// recorder's bundle, `.rtcbundle`, stands for the parts in it).
    package static let traceSuffixes = [".jsonl", ".zst", ".rtcbundle"]

    /// A command-line path that does not exist, or a list that cannot be read.
    package struct InputError: Error, Sendable, CustomStringConvertible {
        /// The message, naming the path.
        package var description: String
    }

    /// Expands paths: a file as given, a folder recursively (regular files ending in `.jsonl` or
    /// `.zst`, hidden names skipped, symbolic links to folders not followed, dangling links kept so
    /// that their rows say `unreadable`), `@LIST` as the paths in
    /// LIST, one a line (blank lines and `#` comments skipped; an entry that does not exist is kept,
    /// so that its row says so). Duplicates are dropped later, when the paths are sorted.
    package static func expand(_ arguments: [String]) throws -> PathList {
        var skipped: [Skipped] = [], unreadable: [Unreadable] = []
        return try expand(arguments, skipped: &skipped, unreadable: &unreadable)
    }

    /// An entry a folder walk passed by without a row, and why.
    package struct Skipped: Sendable, Equatable {
        package var path: String
        package var reason: SkipReason
        /// The kernel's file system the entry is on, for `kernelFile`.
        package var fileSystem: String?

        package init(path: String, reason: SkipReason, fileSystem: String? = nil) {
            self.path = path
            self.reason = reason
            self.fileSystem = fileSystem
        }

        /// Why it got no row, in words.
        package var why: String { reason.words(fileSystem: fileSystem) }
    }

    /// Why a folder walk gives an entry no row: the one table of those reasons; the raw value is the key
    /// a summary counts each under.
    package enum SkipReason: String, Sendable, Hashable, CaseIterable {
        /// A file whose name is not a trace name (a customer's `.jsonl.gz`, notes).
        case notATraceName = "name"
        /// A hidden file (its name starts with `.`): not read. Hidden folders are not searched, nor counted.
        case hidden
        /// A FIFO (a named pipe) with a trace's name: reading it would block.
        case fifo
        /// A device with a trace's name.
        case device
        /// A socket with a trace's name.
        case socket
        /// A file of the kernel's (on `/proc`, `/sys`) with a trace's name: `/proc/kmsg` blocked triage forever.
        case kernelFile = "kernel"

        /// Whether the entry has a trace's name and was not opened for what it is: a walk warns about it
        /// (a FIFO, a device, a socket, a kernel file), where a name that is not a trace's, or hidden, is
        /// only counted.
        package var isRefusal: Bool {
            switch self {
            case .fifo, .device, .socket, .kernelFile: true
            case .notATraceName, .hidden: false
            }
        }
    }

    /// An entry a folder walk could not look into or at: a folder whose entries cannot be listed, or an
    /// entry whose type cannot be read (its folder can be listed but not searched). `triage` gives it an
    /// `unreadable` row; the other readers warn.
    package struct Unreadable: Sendable, Equatable {
        package var path: String
        package var reason: String
    }

    /// Expands paths as `expand(_:)` does; adds to `skipped` every entry a folder walk passed by (a name
    /// that is not a trace's, a hidden name, a FIFO, device, socket or kernel file with a trace's name)
    /// and to `unreadable` every folder or entry it could not read.
    package static func expand(_ arguments: [String], skipped: inout [Skipped], unreadable: inout [Unreadable]) throws -> PathList {
        var out = PathList()
        var passed: [Skipped] = [], unlisted: [Unreadable] = []
        defer { skipped += passed; unreadable += unlisted }
        func add(_ p: String) {
            // A recorder's bundle stands for the parts in it (its problems are said where it is read).
            if TraceBundle.isBundle(p, sniff: !traceSuffixes.contains { p.hasSuffix($0) }), let bundle = TraceBundle.open(p) {
                for part in bundle.parts { out.append(part) }
                if bundle.parts.isEmpty { out.append(p) }
                return
            }
            out.append(p)
        }
        func visit(_ p: String) {
            if isDirectory(p) {
                walk(p, add, skipped: { passed.append($0) },
                     unreadable: { unlisted.append(Unreadable(path: $0, reason: $1)) })
            } else {
                add(p)
            }
        }
        for a in arguments {
            if a.hasPrefix("@") && a.count > 1 {
                let list = String(a.dropFirst())
                let text: String?
                do { text = try SmallFile.text(list) } catch { throw InputError(description: "\(list): \(error)") }
                guard let text else { throw InputError(description: FileWords.noSuchListFile(list)) }
                // "\r\n" is one Character in Swift, so splitting on "\n" alone kept a CRLF list as one line.
                for line in text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
                    let entry = String(line)
                    if entry.allSatisfy({ $0 == " " || $0 == "\t" }) || entry.hasPrefix("#") { continue }
                    visit(entry)
                }
            } else {
                guard FileSystem.exists(a) else { throw InputError(description: FileWords.noSuchFileOrFolder(a)) }
                visit(a)
            }
        }
        return out
    }

    /// Whether `path` is (or links to) a folder.
    package static func isDirectory(_ path: String) -> Bool { FileSystem.isDirectory(path) }

    /// Whether `path` is (or links to) a regular file.
    package static func isRegularFile(_ path: String) -> Bool { (try? FileSystem.status(path))?.type == .regular }

    /// Every trace file below `dir`, recursively, in directory order. Links to folders are not followed
    /// (a link to `.` or `..` would loop or leave the tree); a link to nothing is kept, for its row. A
    /// folder that cannot be listed, or an entry whose type cannot be read, is `unreadable`.
    static func walk(_ dir: String, _ add: (String) -> Void, skipped: (Skipped) -> Void, unreadable: (String, String) -> Void) {
        let names: [String]
        do { names = try FileSystem.entries(of: dir) } catch {
            unreadable(dir, unlistable(error))
            return
        }
        var subdirs: [String] = []
        for name in names {
            let path = dir.hasSuffix("/") ? dir + name : dir + "/" + name
            if name.hasPrefix(".") {
                // Not read and not searched; a hidden file is counted (a `.x.jsonl` would otherwise vanish
                // without a word), a hidden folder (`.git`) is not.
                if (try? FileSystem.status(path, followLinks: false))?.type != .directory { skipped(Skipped(path: path, reason: .hidden)) }
                continue
            }
            let st: FileStatus
            do { st = try FileSystem.status(path, followLinks: false) } catch {
                // The folder can be listed but not searched (read without execute permission): what the
                // entry is cannot be known, so it may be a trace or a folder of them.
                unreadable(path, unexaminable(error))
                continue
            }
            if st.type == .directory { subdirs.append(path); continue }
            let isTraceName = traceSuffixes.contains(where: { name.hasSuffix($0) })
            if st.type == .symbolicLink && !FileSystem.exists(path) {
                // A dangling link (or a loop) is an upload that cannot be read: its row says so, as a
                // missing @LIST entry's does.
                if isTraceName { add(path) } else { skipped(Skipped(path: path, reason: .notATraceName)) }
                continue
            }
            let target = st.type == .symbolicLink ? (try? FileSystem.status(path))?.type : st.type
            guard isTraceName else {
                // A link to a folder is not followed, and gets no word: it is not a file of this folder.
                if target != .directory { skipped(Skipped(path: path, reason: .notATraceName)) }
                continue
            }
            // Only regular files (or links to them) outside the kernel's file systems: a pipe, a device
            // or /proc/kmsg would block the run.
            if target != .regular {
                if let why = notOpened(target) { skipped(Skipped(path: path, reason: why)) }
                continue
            }
            if let fs = FileSystem.kernelFileSystem(path) {
                skipped(Skipped(path: path, reason: .kernelFile, fileSystem: fs))
                continue
            }
            add(path)
        }
        for s in subdirs { walk(s, add, skipped: skipped, unreadable: unreadable) }
    }

    /// Why `path` cannot be read as a walk found it, or nil: a folder that cannot be listed, or an entry
    /// whose type cannot be read. A path that is not there is nil (its row says so when it is opened).
    package static func unreadable(_ path: String) -> String? {
        let st: FileStatus
        do {
            guard let found = try FileSystem.statusIfExists(path, followLinks: false) else { return nil }
            st = found
        } catch {
            return unexaminable(error)
        }
        guard st.type == .directory else { return nil }
        do { _ = try FileSystem.entries(of: path) } catch { return unlistable(error) }
        return nil
    }

    /// Why a walk or a row does not open `path` (following links), or nil when it may: a FIFO, a
    /// device, a socket or a kernel file. A path that is not there may be tried (its row says so).
    package static func refusal(_ path: String) -> String? {
        guard let st = try? FileSystem.status(path) else { return nil }
        if st.type == .regular { return FileSystem.kernelFileSystem(path).map { SkipReason.kernelFile.words(fileSystem: $0) } }
        return notOpened(st.type)?.words()
    }

    /// Why a walk does not open an entry of this type (nil for a regular file, a link to nothing or to a folder).
    static func notOpened(_ type: FileType?) -> SkipReason? {
        switch type {
        case .fifo?: .fifo
        case .characterDevice?, .blockDevice?: .device
        case .socket?: .socket
        case .regular?, .directory?, .symbolicLink?, .unknown?, nil: nil
        }
    }
}
