import SystemLayer

/// An I/O failure on a trace file, named with the path and the system's message.
public struct FileError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The path involved.
    public var path: String
    /// What failed.
    public var message: String
    /// `PATH: message`.
    public var description: String { "\(path): \(message)" }

    /// Creates an error about `path`.
    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    /// `what` failed on `path` for the system's reason.
    static func system(_ path: String, _ what: String, _ error: SystemError) -> FileError {
        FileError(path: path, message: "\(what): \(error.reason)")
    }
}

/// A file opened for sequential reading (or standard input for `-`; or the copy `InputSpool` made of an
/// input that can be read only once, read from its first byte).
final class FileInput {
    let path: String
    let file: OpenFile
    /// The file's size when it is a regular file (nil for standard input, pipes and devices).
    private(set) var size: Int?
    /// The next byte to read of a spooled copy (shared with every other reader of it, so read by offset).
    private var spoolOffset: Int64?

    init(path: String) throws {
        self.path = path
        if let copy = InputSpool.copy(of: path) {
            file = copy
            spoolOffset = 0
            size = (try? copy.status()).map { Int($0.size) }
        } else if path == "-" {
            file = OpenFile(borrowing: .standardInput, name: "-")
        } else {
            do { file = try OpenFile(path, .readOnly) } catch { throw FileError.system(path, "cannot open", error) }
            let status = try? file.status()
            if status?.type == .directory {
                throw FileError(path: path, message: "is a directory")
            }
            if let status, status.type == .regular { size = Int(status.size) }
        }
    }

    /// Reads up to `count` bytes into `buffer`; 0 at end of file.
    func read(into buffer: UnsafeMutableRawPointer, count: Int) throws -> Int {
        do {
            let p = UnsafeMutableRawBufferPointer(start: buffer, count: count)
            guard let offset = spoolOffset else { return try file.read(into: p) }
            let n = try file.read(into: p, at: offset)
            spoolOffset = offset + Int64(n)
            return n
        } catch {
            throw FileError.system(path, "read failed", error)
        }
    }
}
