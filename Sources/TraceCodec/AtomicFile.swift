import SystemLayer

/// Output files are written whole or not at all: to a temporary sibling, then renamed over the target.
package enum AtomicFile {
    /// The longest file name the file systems the tool writes to take, in bytes (NAME_MAX).
    package static let maxNameBytes = 255

    /// A temporary path in the same directory as `path` (so the rename stays on one file system):
    /// `.NAME.tmp-PID-RANDOM`, with NAME cut (at a character boundary) so that the whole name fits
    /// `maxNameBytes` whatever the length of a legal output name. Temporaries that killed runs left are
    /// removed first: those of `path` that no writer holds (`removeStaleTemporaries(of:)`), and any in
    /// that directory whose process is gone (`removeStaleTemporaries(in:)`).
    package static func temporarySibling(of path: String) -> String {
        let (dir, name) = split(path)
        removeStaleTemporaries(of: path)
        removeStaleTemporaries(in: dir.isEmpty ? "." : dir)
        // Random, so a stale temporary left by a crashed run (whose pid may recur) is never reused.
        let suffix = ".tmp-\(CurrentProcess.id)-\(String(UInt64.random(in: 0...UInt64.max), radix: 36))"
        let temporary = dir + "." + prefix(name, bytes: maxNameBytes - 1 - suffix.utf8.count) + suffix
        // Removed if a signal ends the process before it is renamed or removed (`commit`, `discard`).
        SignalCleanup.register(temporary)
        return temporary
    }

    /// The longest start of `s` of at most `bytes` UTF-8 bytes that ends at a character boundary.
    static func prefix(_ s: String, bytes: Int) -> String {
        guard s.utf8.count > bytes else { return s }
        var out = "", used = 0
        for c in s {
            let n = c.utf8.count
            if used + n > bytes { break }
            out.append(c)
            used += n
        }
        return out
    }

    /// How long a temporary whose process is gone is left alone (another host's writer on a shared
    /// folder has a pid this machine cannot see), and how old one must be to go whatever its pid.
    package static let staleAfterSeconds: Int64 = 10 * 60
    package static let abandonedAfterSeconds: Int64 = 24 * 60 * 60

    /// Whether `name` is a temporary this module makes (`.NAME.tmp-PID-RANDOM`), and its PID.
    static func temporaryOwner(_ name: String) -> Int32? {
        let bytes = Array(name.utf8), marker = Array(".tmp-".utf8)
        guard bytes.first == UInt8(ascii: "."), bytes.count > marker.count + 1,
              let at = (1...(bytes.count - marker.count)).reversed().first(where: { bytes[$0..<$0 + marker.count].elementsEqual(marker) })
        else { return nil }
        let fields = bytes[(at + marker.count)...].split(separator: UInt8(ascii: "-"), omittingEmptySubsequences: false)
            .map { String(decoding: $0, as: UTF8.self) }
        guard fields.count == 2, let pid = Int32(fields[0]), pid > 0, !fields[1].isEmpty,
              fields[1].utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x7A).contains($0) }) else { return nil }
        return pid
    }

    /// Removes from `dir` the temporaries of runs that were killed before they renamed or removed them
    /// (20 SIGKILLed `record` runs left 23 MB): regular files named as `temporarySibling` names them,
    /// unchanged for `staleAfterSeconds` and whose process no longer runs, or unchanged for
    /// `abandonedAfterSeconds`. Returns the paths removed; a folder that cannot be listed is left alone.
    @discardableResult
    package static func removeStaleTemporaries(in dir: String, now: Int64 = Clock.wallSeconds()) -> [String] {
        guard let names = try? FileSystem.entries(of: dir) else { return [] }
        var removed: [String] = []
        for name in names {
            guard let pid = temporaryOwner(name) else { continue }
            let path = dir.hasSuffix("/") ? dir + name : dir + "/" + name
            guard let st = try? FileSystem.status(path, followLinks: false), st.type == .regular else { continue }
            let age = now - st.modifiedSeconds
            guard age >= abandonedAfterSeconds || (age >= staleAfterSeconds && pid != CurrentProcess.id && !CurrentProcess.isRunning(pid)) else { continue }
            if (try? FileSystem.remove(path)) != nil { removed.append(path) }
        }
        return removed
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
    package static func removeStaleTemporaries(of path: String) -> [String] {
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
    package static func createTemporary(_ temporary: String) throws(SystemError) -> OpenFile {
        let file = try OpenFile(temporary, .writeOnly, options: [.create, .exclusive, .noFollow, .closeOnExec])
        _ = try? file.lock(.exclusive)
        return file
    }

    /// Renames the finished temporary file over `path`.
    package static func commit(_ temporary: String, to path: String) throws {
        defer { SignalCleanup.unregister(temporary) }
        do { try FileSystem.rename(temporary, to: path) } catch {
            FileSystem.removeIfPresent(temporary)
            throw FileError.system(path, FileWords.cannotMoveIntoPlace, error)
        }
    }

    /// Removes a temporary file after a failure.
    package static func discard(_ temporary: String) {
        FileSystem.removeIfPresent(temporary)
        SignalCleanup.unregister(temporary)
    }

    /// Writes `bytes` to `path` atomically.
    package static func write(_ bytes: [UInt8], to path: String) throws {
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
    package static func write(_ text: String, to path: String) throws { try write(Array(text.utf8), to: path) }

    /// Runs `body` with a fresh temporary sibling of `path` to create (e.g. with a `TraceWriter`),
    /// then renames it over `path`. On any error the temporary is removed, and the error names
    /// `path`: never a temporary file that no longer exists.
    package static func replace<T>(_ path: String, _ body: (_ temporary: String) throws -> T) throws -> T {
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
    package static func naming(_ path: String, insteadOf temporary: String, in error: Error) -> Error {
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
package enum SmallFile {
    /// The file's bytes, or nil when it does not exist; throws when it exceeds `limit` bytes.
    package static func read(_ path: String, limit: Int = 64 << 20) throws -> [UInt8]? {
        let file: OpenFile
        do { file = try OpenFile(path, .readOnly) } catch {
            if error.errno == .noSuchFile { return nil }
            throw FileError.system(path, "cannot open", error)
        }
        do { return try file.readAll(limit: limit) } catch {
            if error.errno == .fileTooLarge { throw FileError(path: path, message: FileWords.largerThan(limit)) }
            throw FileError.system(path, "read failed", error)
        }
    }

    /// The file as UTF-8 text, or nil when it does not exist.
    package static func text(_ path: String) throws -> String? {
        try read(path).map { String(decoding: $0, as: UTF8.self) }
    }
}
