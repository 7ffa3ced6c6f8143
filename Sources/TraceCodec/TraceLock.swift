import SystemLayer

/// The advisory lock (`flock`, exclusive) a `TraceWriter` holds on its trace while it is open.
///
/// Anything that replaces a trace takes the same lock on the file it replaces and holds it until
/// the new file is in place, so it can neither pull a trace from under an appender nor let one
/// start appending to a file that is about to be unlinked.
package final class TraceLock {
    /// The file whose lock is held (closing it releases the lock).
    private let file: OpenFile

    private init(_ file: OpenFile) { self.file = file }

    /// Takes the lock on the existing file at `path`; nil when there is no file to lock (or it
    /// cannot be opened for reading, in which case no writer of this user can hold it either).
    /// Throws while another writer holds it.
    package static func acquire(existing path: String) throws -> TraceLock? {
        guard let file = try? OpenFile(path, .readOnly, options: [.closeOnExec, .noFollow, .nonBlocking]) else { return nil }
        let locked: Bool
        do { locked = try file.lock(.exclusive) } catch { throw FileError.system(path, "cannot lock", error) }
        guard locked else { throw heldError(path, refusing: FileWords.toReplace) }
        return TraceLock(file)
    }

    /// Releases the lock now (it is also released when this object goes away).
    package func release() { try? file.close() }

    /// The error for a trace whose lock another writer holds.
    static func heldError(_ path: String, refusing what: String = "to interleave") -> FileError {
        FileError(path: path, message: FileWords.lockHeld(refusing: what))
    }
}
