import Glibc
import TraceFormat

/// One trace to triage: a single file, or the parts of one recorded session in part order.
public struct TriageTrace: Sendable, Equatable {
    /// The files, in replay order (the first one names the trace).
    public var paths: [String]
    /// The session id the headers carry, when they do.
    public var session: String?
    /// Bytes on disk over all files.
    public var size: Int

    /// Creates a trace of these files.
    public init(paths: [String], session: String?, size: Int) {
        self.paths = paths
        self.session = session
        self.size = size
    }
}

/// A stable slice of the traces, `I/N` (0 ≤ I < N): a trace belongs to shard FNV-1a-64(key) mod N,
/// keyed by its session id (so every part of a session lands in one shard) or, without one, by its path.
public struct TriageShard: Sendable, Equatable, CustomStringConvertible {
    /// This shard's index, from 0.
    public var index: Int
    /// The number of shards.
    public var count: Int

    /// `I/N`.
    public var description: String { "\(index)/\(count)" }

    /// Parses `I/N`; nil unless 0 ≤ I < N.
    public init?(parsing s: String) {
        let parts = s.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let i = Int(parts[0]), let n = Int(parts[1]), n >= 1, i >= 0, i < n else { return nil }
        index = i
        count = n
    }

    /// Creates a shard.
    public init(index: Int, count: Int) {
        self.index = index
        self.count = count
    }

    /// Whether the trace with this key belongs to the shard.
    public func contains(key: String) -> Bool { Int(Self.fnv1a64(key) % UInt64(count)) == index }

    /// FNV-1a, 64 bits, over the UTF-8 bytes: the same on every machine and in every run.
    public static func fnv1a64(_ s: String) -> UInt64 { StableHash.fnv1a64(s) }
}

/// Finds the traces a triage run covers: expands paths, reads each file's header to tie the parts
/// of a session together, orders traces by path and keeps one shard.
public enum TriagePlan {
    /// File name endings a folder is searched for.
    public static let traceSuffixes = [".jsonl", ".zst"]

    /// A command-line path that does not exist, or a list that cannot be read.
    public struct InputError: Error, Sendable, CustomStringConvertible {
        /// The message, naming the path.
        public var description: String
    }

    /// Expands paths: a file as given, a folder recursively (files ending in `.jsonl` or `.zst`,
    /// hidden names skipped, symbolic links to folders not followed), `@LIST` as the paths in
    /// LIST, one a line (blank lines and `#` comments skipped; an entry that does not exist is kept,
    /// so that its row says so). Duplicates are dropped; `exclude` (the output file) is left out.
    public static func expand(_ arguments: [String], exclude: String? = nil) throws -> [String] {
        var out: [String] = []
        var seen = Set<String>()
        func add(_ p: String) { if p != exclude && seen.insert(p).inserted { out.append(p) } }
        func visit(_ p: String) { if isDirectory(p) { walk(p, add) } else { add(p) } }
        for a in arguments {
            if a.hasPrefix("@") && a.count > 1 {
                let list = String(a.dropFirst())
                let text: String?
                do { text = try SmallFile.text(list) } catch { throw InputError(description: "\(list): \(error)") }
                guard let text else { throw InputError(description: "\(list): no such list file") }
                for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
                    let entry = String(line.hasSuffix("\r") ? line.dropLast() : line[...])
                    if entry.allSatisfy({ $0 == " " || $0 == "\t" }) || entry.hasPrefix("#") { continue }
                    visit(entry)
                }
            } else {
                guard access(a, F_OK) == 0 else { throw InputError(description: "\(a): no such file or folder") }
                visit(a)
            }
        }
        return out
    }

    /// Reads every file's header on `jobs` threads and groups the files into traces: the parts of
    /// one session (same `session.id`) in part order, every other file alone. A second file claiming
    /// a part already taken is a trace of its own. Traces come ordered by their first path (bytes),
    /// and only those in `shard` are kept.
    public static func traces(of files: [String], jobs: Int, shard: TriageShard? = nil) -> [TriageTrace] {
        var peeks: [Peek] = []
        peeks.reserveCapacity(files.count)
        OrderedParallel.run(count: files.count, jobs: jobs, window: max(64, jobs * 16), work: { peek(files[$0]) },
                            emit: { _, p in peeks.append(p) })
        var traces: [TriageTrace] = []
        var sessions: [String: [(part: Int, file: Int)]] = [:]
        for (i, p) in peeks.enumerated() {
            if let s = p.session {
                sessions[s.id, default: []].append((s.part, i))
            } else {
                traces.append(TriageTrace(paths: [files[i]], session: nil, size: p.size))
            }
        }
        for (id, parts) in sessions {
            var group: [Int] = []
            var taken = Set<Int>()
            for (part, file) in parts.sorted(by: { ($0.part, bytes(files[$0.file])) < ($1.part, bytes(files[$1.file])) }) {
                if taken.insert(part).inserted {
                    group.append(file)
                } else {
                    traces.append(TriageTrace(paths: [files[file]], session: id, size: peeks[file].size))
                }
            }
            traces.append(TriageTrace(paths: group.map { files[$0] }, session: id, size: group.reduce(0) { $0 + peeks[$1].size }))
        }
        if let shard { traces.removeAll { !shard.contains(key: $0.session ?? $0.paths[0]) } }
        traces.sort { bytes($0.paths[0]) < bytes($1.paths[0]) }
        return traces
    }

    /// What a file's header says about the session it belongs to.
    struct Peek: Sendable {
        var size: Int
        var session: TraceHeader.Session?
    }

    /// Reads as far as the first record (a few events at most) and returns its session, if it is a header with one.
    static func peek(_ path: String) -> Peek {
        var st = stat()
        let size = stat(path, &st) == 0 ? Int(st.st_size) : 0
        guard let reader = try? TraceReader(path: path) else { return Peek(size: size, session: nil) }
        var events = 0
        while events < 64, let e = reader.next() {
            events += 1
            switch e {
            case .record(let r):
                if case .header(let h) = r.body { return Peek(size: size, session: h.session) }
                return Peek(size: size, session: nil)
            case .problem(let p) where p.kind == .notATrace:
                return Peek(size: size, session: nil)
            case .problem:
                continue
            }
        }
        return Peek(size: size, session: nil)
    }

    /// Byte order of paths, the same in every locale.
    static func bytes(_ s: String) -> BytesKey { BytesKey(s) }

    struct BytesKey: Comparable {
        let s: String
        init(_ s: String) { self.s = s }
        static func < (a: BytesKey, b: BytesKey) -> Bool { a.s.utf8.lexicographicallyPrecedes(b.s.utf8) }
        static func == (a: BytesKey, b: BytesKey) -> Bool { a.s.utf8.elementsEqual(b.s.utf8) }
    }

    static func isDirectory(_ path: String) -> Bool {
        var st = stat()
        return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR
    }

    /// Every trace file below `dir`, recursively, in directory order.
    static func walk(_ dir: String, _ add: (String) -> Void) {
        guard let d = opendir(dir) else { return }
        defer { closedir(d) }
        var subdirs: [String] = []
        while let e = readdir(d) {
            let name = withUnsafeBytes(of: e.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name.hasPrefix(".") { continue }
            let path = dir.hasSuffix("/") ? dir + name : dir + "/" + name
            var st = stat()
            guard lstat(path, &st) == 0 else { continue }
            let type = st.st_mode & S_IFMT
            if type == S_IFDIR { subdirs.append(path); continue }
            if type == S_IFLNK && isDirectory(path) { continue }
            if traceSuffixes.contains(where: { name.hasSuffix($0) }) { add(path) }
        }
        for s in subdirs { walk(s, add) }
    }
}
