import Glibc

/// An I/O failure on a trace file, named with the path and the system's message.
public struct FileError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The path involved.
    public var path: String
    /// What failed.
    public var message: String
    /// `PATH: message`.
    public var description: String { "\(path): \(message)" }

    static func errno(_ path: String, _ what: String) -> FileError {
        FileError(path: path, message: "\(what): \(String(cString: strerror(Glibc.errno)))")
    }
}

/// A file opened for sequential reading with raw `read(2)` (or standard input for `-`).
final class FileInput {
    let path: String
    let fd: Int32
    private let owned: Bool
    /// The file's size when it is a regular file (nil for standard input, pipes and devices).
    private(set) var size: Int?

    init(path: String) throws {
        self.path = path
        if path == "-" {
            fd = 0
            owned = false
        } else {
            fd = open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { throw FileError.errno(path, "cannot open") }
            owned = true
            var st = stat()
            if fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFDIR {
                close(fd)
                throw FileError(path: path, message: "is a directory")
            }
            if (st.st_mode & S_IFMT) == S_IFREG { size = Int(st.st_size) }
        }
    }

    deinit { if owned { close(fd) } }

    /// Reads up to `count` bytes into `buffer`; 0 at end of file.
    func read(into buffer: UnsafeMutableRawPointer, count: Int) throws -> Int {
        while true {
            let n = Glibc.read(fd, buffer, count)
            if n >= 0 { return n }
            if Glibc.errno == EINTR { continue }
            throw FileError.errno(path, "read failed")
        }
    }
}
