import Glibc

/// Output files are written whole or not at all: to a temporary sibling, then renamed over the target.
public enum AtomicFile {
    /// A temporary path in the same directory as `path` (so the rename stays on one file system).
    public static func temporarySibling(of path: String) -> String {
        let slash = path.lastIndex(of: "/")
        let dir = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        // Random, so a stale temporary left by a crashed run (whose pid may recur) is never reused.
        return "\(dir).\(name).tmp-\(getpid())-\(String(UInt64.random(in: 0...UInt64.max), radix: 36))"
    }

    /// Renames the finished temporary file over `path`.
    public static func commit(_ temporary: String, to path: String) throws {
        guard rename(temporary, path) == 0 else {
            let e = FileError.errno(path, "cannot move the finished file into place")
            unlink(temporary)
            throw e
        }
    }

    /// Removes a temporary file after a failure.
    public static func discard(_ temporary: String) { unlink(temporary) }

    /// Writes `bytes` to `path` atomically.
    public static func write(_ bytes: [UInt8], to path: String) throws {
        let tmp = temporarySibling(of: path)
        // O_EXCL | O_NOFOLLOW: never write through a symlink or into a file someone else made.
        let fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw FileError.errno(path, "cannot create") }
        var off = 0
        let ok = bytes.withUnsafeBytes { p -> Bool in
            while off < p.count {
                let n = Glibc.write(fd, p.baseAddress! + off, p.count - off)
                if n < 0 { if errno == EINTR { continue }; return false }
                if n == 0 { errno = ENOSPC; return false }
                off += n
            }
            // Durable before the rename, so a power cut leaves the old file or the whole new one.
            return fsync(fd) == 0 || errno == EINVAL
        }
        let err = FileError.errno(path, "write failed")
        close(fd)
        guard ok else { unlink(tmp); throw err }
        try commit(tmp, to: path)
    }

    /// Writes a string to `path` atomically.
    public static func write(_ text: String, to path: String) throws { try write(Array(text.utf8), to: path) }
}

/// Small whole-file reads (snapshots, config), bounded.
public enum SmallFile {
    /// The file's bytes, or nil when it does not exist; throws when it exceeds `limit` bytes.
    public static func read(_ path: String, limit: Int = 64 << 20) throws -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOENT { return nil }
            throw FileError.errno(path, "cannot open")
        }
        defer { close(fd) }
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress!, $0.count) }
            if n < 0 { if errno == EINTR { continue }; throw FileError.errno(path, "read failed") }
            if n == 0 { return out }
            out.append(contentsOf: chunk[0..<n])
            if out.count > limit { throw FileError(path: path, message: "larger than \(limit) bytes") }
        }
    }

    /// The file as UTF-8 text, or nil when it does not exist.
    public static func text(_ path: String) throws -> String? {
        try read(path).map { String(decoding: $0, as: UTF8.self) }
    }
}
