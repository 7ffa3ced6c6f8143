import SystemLayer

/// An I/O failure on a trace file, named with the path and the system's message.
package struct FileError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The path involved.
    package var path: String
    /// What failed.
    package var message: String
    /// `PATH: message`.
    package var description: String { "\(path): \(message)" }

    /// Creates an error about `path`.
    package init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    /// `what` failed on `path` for the system's reason.
    static func system(_ path: String, _ what: String, _ error: SystemError) -> FileError {
        FileError(path: path, message: "\(what): \(error.reason)")
    }
}

/// The bytes of a trace file as readers see them (a bundle's member, `BUNDLE/NAME`, included).
package enum TraceBytes {
    /// Calls `body` with the file's bytes, a chunk at a time.
    package static func forEachChunk(_ path: String, _ body: (UnsafeBufferPointer<UInt8>) -> Void) throws {
        let input = try FileInput(path: path)
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = try chunk.withUnsafeMutableBytes { try input.read(into: $0.baseAddress!, count: $0.count) }
            if n == 0 { return }
            chunk.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[0..<n])) }
        }
    }
}

/// A file opened for sequential reading (or standard input for `-`; or a bundle's member, `BUNDLE/NAME`; or
/// the copy `InputSpool` made of an input that can be read only once, read from its first byte).
final class FileInput {
    let path: String
    let file: OpenFile
    /// The file's size when it is a regular file (nil for standard input, pipes and devices).
    private(set) var size: Int?
    /// The next byte to read of a spooled copy (shared with every other reader of it, so read by offset).
    private var spoolOffset: Int64?

    /// A bundle's member (`BUNDLE/NAME`): where its bytes are in the archive, and how many are left.
    private var member: (next: Int64, left: Int)?
    /// Why a bundle's member is not what its manifest says (`TraceBundle`), or nil.
    private(set) var bundleMismatch: String?

    init(path: String) throws {
        self.path = path
        if let copy = InputSpool.copy(of: path) {
            file = copy
            spoolOffset = 0
            size = (try? copy.status()).map { Int($0.size) }
        } else if path == "-" {
            file = OpenFile(borrowing: CommandInputs.standardInput, name: "-")
        } else if let (bundle, m) = TraceBundle.locate(path) {
            do { file = try OpenFile(bundle.path, .readOnly) } catch { throw FileError.system(bundle.path, "cannot open", error) }
            member = (m.offset, m.size)
            size = m.size
            bundleMismatch = bundle.mismatched[m.name]
        } else {
            do { file = try OpenFile(path, .readOnly) } catch { throw FileError.system(path, "cannot open", error) }
            let status = try? file.status()
            if status?.type == .directory {
                throw FileError(path: path, message: FileWords.isADirectory)
            }
            if let status, status.type == .regular { size = Int(status.size) }
        }
    }

    /// Reads up to `count` bytes into `buffer`; 0 at end of file.
    func read(into buffer: UnsafeMutableRawPointer, count: Int) throws -> Int {
        if let m = member {
            guard m.left > 0 else { return 0 }
            do {
                let n = try file.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: min(count, m.left)), at: m.next)
                member = (m.next + Int64(n), n == 0 ? 0 : m.left - n)
                return n
            } catch { throw FileError.system(path, "read failed", error) }
        }
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
