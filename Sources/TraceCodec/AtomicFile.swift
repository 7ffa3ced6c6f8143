import SystemLayer

/// Output files are written whole or not at all: to a temporary sibling, then renamed over the target.
public enum AtomicFile {
    /// A temporary path in the same directory as `path` (so the rename stays on one file system):
    /// `.NAME.tmp-PID-RANDOM`. The temporaries of `path` that a killed run left behind are removed
    /// first (`removeStaleTemporaries`).
    public static func temporarySibling(of path: String) -> String {
        let (dir, name) = split(path)
        removeStaleTemporaries(of: path)
        // Random, so a stale temporary left by a crashed run (whose pid may recur) is never reused.
        return "\(dir).\(name).tmp-\(CurrentProcess.id)-\(String(UInt64.random(in: 0...UInt64.max), radix: 36))"
    }

    /// The folder part (with its slash, or empty) and the name of `path`.
    static func split(_ path: String) -> (dir: String, name: String) {
        let slash = path.lastIndex(of: "/")
        return (slash.map { String(path[...$0]) } ?? "", slash.map { String(path[path.index(after: $0)...]) } ?? path)
    }

    /// Removes the temporaries of `path` (`.NAME.tmp-*` beside it) that no live writer holds: every
    /// writer holds an exclusive advisory lock on its temporary from creation to rename, and the system
    /// releases it when the process dies, even by SIGKILL. So a temporary whose lock can be taken is a
    /// dead run's, whichever machine or pid namespace the run was in; one a running writer holds stays.
    /// Returns the names removed.
    @discardableResult
    public static func removeStaleTemporaries(of path: String) -> [String] {
        let (dir, name) = split(path)
        let prefix = "." + name + ".tmp-"
        guard let names = try? FileSystem.entries(of: dir.isEmpty ? "." : dir) else { return [] }
        var removed: [String] = []
        for n in names where n.hasPrefix(prefix) {
            let candidate = dir + n
            guard let st = try? FileSystem.status(candidate, followLinks: false), st.type == .regular,
                  let file = try? OpenFile(candidate, .readOnly, options: [.noFollow, .nonBlocking, .closeOnExec]) else { continue }
            if (try? file.lock(.exclusive)) == true {
                FileSystem.removeIfPresent(candidate)
                removed.append(candidate)
            }
            try? file.close()
        }
        return removed
    }

    /// Creates the temporary `temporary` (never through a link, never over an existing file) and takes
    /// the writer's lock on it, which tells a later run that the file is not stale.
    public static func createTemporary(_ temporary: String) throws(SystemError) -> OpenFile {
        let file = try OpenFile(temporary, .writeOnly, options: [.create, .exclusive, .noFollow, .closeOnExec])
        _ = try? file.lock(.exclusive)
        return file
    }

    /// Renames the finished temporary file over `path`.
    public static func commit(_ temporary: String, to path: String) throws {
        do { try FileSystem.rename(temporary, to: path) } catch {
            FileSystem.removeIfPresent(temporary)
            throw FileError.system(path, "cannot move the finished file into place", error)
        }
    }

    /// Removes a temporary file after a failure.
    public static func discard(_ temporary: String) { FileSystem.removeIfPresent(temporary) }

    /// Writes `bytes` to `path` atomically.
    public static func write(_ bytes: [UInt8], to path: String) throws {
        let tmp = temporarySibling(of: path)
        // O_EXCL | O_NOFOLLOW: never write through a symlink or into a file someone else made.
        let file: OpenFile
        do { file = try createTemporary(tmp) } catch {
            throw FileError.system(path, "cannot create", error)
        }
        do {
            try file.writeAll(bytes)
            // Durable before the rename, so a power cut leaves the old file or the whole new one.
            do { try file.sync() } catch where error.errno == .invalidArgument {}
            try file.close()
        } catch {
            try? file.close()
            discard(tmp)
            throw FileError.system(path, "write failed", error)
        }
        try commit(tmp, to: path)
    }

    /// Writes a string to `path` atomically.
    public static func write(_ text: String, to path: String) throws { try write(Array(text.utf8), to: path) }

    /// Runs `body` with a fresh temporary sibling of `path` to create (e.g. with a `TraceWriter`),
    /// then renames it over `path`. On any error the temporary is removed, and the error names
    /// `path`: never a temporary file that no longer exists.
    public static func replace<T>(_ path: String, _ body: (_ temporary: String) throws -> T) throws -> T {
        let tmp = temporarySibling(of: path)
        do {
            let result = try body(tmp)
            try commit(tmp, to: path)
            return result
        } catch {
            discard(tmp)
            throw naming(path, insteadOf: tmp, in: error)
        }
    }

    /// The same error told about `path` where it named `temporary`.
    public static func naming(_ path: String, insteadOf temporary: String, in error: Error) -> Error {
        switch error {
        case var e as FileError:
            if e.path == temporary { e.path = path }
            e.message = e.message.replacingAll(temporary, with: path)
            return e
        case let e as WriteError: return e.naming(path, insteadOf: temporary)
        case let e as SystemError where e.path == temporary: return e.about(path)
        default: return error
        }
    }
}

extension String {
    /// Every occurrence of `target` replaced; by bytes, without Foundation or the string-processing
    /// APIs that older iOS releases lack.
    func replacingAll(_ target: String, with replacement: String) -> String {
        let bytes = Array(utf8), t = Array(target.utf8)
        guard !t.isEmpty, bytes.count >= t.count else { return self }
        var out: [UInt8] = []
        var i = 0
        while i < bytes.count {
            if i + t.count <= bytes.count && bytes[i..<(i + t.count)].elementsEqual(t) {
                out += replacement.utf8
                i += t.count
            } else {
                out.append(bytes[i])
                i += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}

/// Small whole-file reads (snapshots, config), bounded.
public enum SmallFile {
    /// The file's bytes, or nil when it does not exist; throws when it exceeds `limit` bytes.
    public static func read(_ path: String, limit: Int = 64 << 20) throws -> [UInt8]? {
        let file: OpenFile
        do { file = try OpenFile(path, .readOnly) } catch {
            if error.errno == .noSuchFile { return nil }
            throw FileError.system(path, "cannot open", error)
        }
        do { return try file.readAll(limit: limit) } catch {
            if error.errno == .fileTooLarge { throw FileError(path: path, message: "larger than \(limit) bytes") }
            throw FileError.system(path, "read failed", error)
        }
    }

    /// The file as UTF-8 text, or nil when it does not exist.
    public static func text(_ path: String) throws -> String? {
        try read(path).map { String(decoding: $0, as: UTF8.self) }
    }
}
