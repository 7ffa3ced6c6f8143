import SystemLayer

/// Inputs that can be read only once (standard input, a pipe, a FIFO, `<(…)`), copied once into an
/// unnamed temporary file for a command that reads its input more than once (`redact` learns the order
/// of uids before it writes, then replays both traces): every later `TraceReader` of that name reads the
/// copy from its first byte. The copy is unlinked as soon as it is made, so nothing is left behind
/// whatever ends the process; it lives in `TMPDIR` (else `/tmp`) and costs disk, never memory.
package enum InputSpool {
    private static let lock = Lock()
    nonisolated(unsafe) private static var spools: [String: OpenFile] = [:]

    /// Copies `path` into a spool unless it is a regular file (which can be read again as it is) or is
    /// spooled already; returns whether it is spooled now. Throws a `FileError` naming `path` when it
    /// cannot be read or the copy cannot be written.
    @discardableResult
    package static func spoolIfReadOnce(_ path: String) throws -> Bool {
        if lock.withLock({ spools[path] != nil }) { return true }
        if path != "-", let st = try? FileSystem.status(path), st.type == .regular || st.type == .directory { return false }
        let source: OpenFile
        if path == "-" {
            source = OpenFile(borrowing: CommandInputs.standardInput, name: "-")
        } else {
            do { source = try OpenFile(path, .readOnly) } catch { throw FileError.system(path, "cannot open", error) }
        }
        let dir = CurrentProcess.environment("TMPDIR").flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        let name = (dir.hasSuffix("/") ? dir : dir + "/") + ".rtctrace-input-\(CurrentProcess.id)-\(String(UInt64.random(in: 0...UInt64.max), radix: 36))"
        let copy: OpenFile
        SignalCleanup.register(name)
        defer { SignalCleanup.unregister(name) }
        do {
            copy = try OpenFile(name, .readWrite, options: [.create, .exclusive, .noFollow, .closeOnExec], permissions: 0o600)
        } catch {
            throw FileError(path: path, message: FileWords.cannotKeepACopy(dir, error))
        }
        // Unnamed from here on: the system frees it when the last descriptor closes, even after SIGKILL.
        FileSystem.removeIfPresent(name)
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            // Array's closure APIs are not typed-throws: each call's error comes out as a Result.
            let n: Int
            switch chunk.withUnsafeMutableBytes({ p in Result { () throws(SystemError) in try source.read(into: p) } }) {
            case .success(let count): n = count
            case .failure(let error): throw FileError.system(path, "read failed", error)
            }
            if n == 0 { break }
            let written = chunk.withUnsafeBytes { p in
                Result { () throws(SystemError) in try copy.writeAll(UnsafeRawBufferPointer(rebasing: p[0..<n])) }
            }
            if case .failure(let error) = written {
                throw FileError(path: path, message: FileWords.cannotKeepACopy(dir, error))
            }
        }
        lock.withLock { spools[path] = copy }
        return true
    }

    /// Closes every copy (the command that read them has ended).
    static func forgetAll() {
        let copies = lock.withLock { () -> [OpenFile] in
            defer { spools = [:] }
            return Array(spools.values)
        }
        for c in copies { try? c.close() }
    }

    /// The spooled copy of `path`, when there is one.
    static func copy(of path: String) -> OpenFile? { lock.withLock { spools[path] } }
}
