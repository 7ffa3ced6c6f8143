import Glibc

/// An in-memory file (an unlinked file in /dev/shm) the fuzz targets rewrite per input, so the
/// reader opens it by path exactly as it opens a trace on disk, without touching the disk.
public final class MemoryFile {
    private let fd: Int32
    /// A path that opens the current contents from offset 0.
    public let path: String

    /// Creates an empty in-memory file.
    public init() {
        let name = "/dev/shm/rtctrace-fuzz-\(getpid())"
        fd = open(name, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        precondition(fd >= 0, "cannot create \(name)")
        unlink(name)
        path = "/proc/self/fd/\(fd)"
    }

    deinit { close(fd) }

    /// Replaces the contents with `bytes`.
    public func set(_ bytes: UnsafeRawBufferPointer) {
        _ = ftruncate(fd, 0)
        var off = 0
        while off < bytes.count {
            let n = pwrite(fd, bytes.baseAddress! + off, bytes.count - off, off_t(off))
            precondition(n > 0, "memfd write failed")
            off += n
        }
    }
}
