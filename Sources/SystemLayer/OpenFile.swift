/// An open file that closes itself: every call's error names the file's path.
///
/// The owning layer over `FileDescriptor`, like the zstd contexts over their C handles: closed
/// explicitly with `close()`, or in `deinit` if the owner forgot (errors then are lost).
public final class OpenFile {
    /// The path opened (or a name such as "standard output").
    public let path: String
    /// The descriptor.
    public let descriptor: FileDescriptor
    private let owned: Bool
    private var closed = false

    /// Opens `path`.
    public init(_ path: String, _ mode: FileDescriptor.AccessMode, options: FileDescriptor.OpenOptions = [.closeOnExec],
                permissions: UInt16 = 0o644) throws(SystemError) {
        self.path = path
        descriptor = try FileDescriptor.open(path, mode, options: options, permissions: permissions)
        owned = true
    }

    /// Wraps a descriptor this object does not own (standard input and output): never closed here.
    public init(borrowing descriptor: FileDescriptor, name: String) {
        path = name
        self.descriptor = descriptor
        owned = false
    }

    deinit {
        if owned && !closed { try? descriptor.close() }
    }

    private func named<T>(_ body: () throws(SystemError) -> T) throws(SystemError) -> T {
        do { return try body() } catch { throw error.about(path) }
    }

    /// Reads up to `buffer.count` bytes; 0 at the end of the file.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> Int {
        try named { () throws(SystemError) in try descriptor.read(into: buffer) }
    }

    /// Reads up to `buffer.count` bytes at `offset`.
    public func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws(SystemError) -> Int {
        try named { () throws(SystemError) in try descriptor.read(into: buffer, at: offset) }
    }

    /// Reads the rest of the file; throws (naming the limit) when it holds more than `limit` bytes.
    public func readAll(limit: Int = Int.max) throws(SystemError) -> [UInt8] {
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            // Array's closure APIs are not typed-throws: carry the error out as a Result.
            let n = try chunk.withUnsafeMutableBytes { p in Result { () throws(SystemError) in try read(into: p) } }.get()
            if n == 0 { return out }
            out.append(contentsOf: chunk[0..<n])
            if out.count > limit { throw SystemError(.fileTooLarge, call: "read", path: path) }
        }
    }

    /// One write; returns how many bytes the system took.
    public func write(_ bytes: UnsafeRawBufferPointer) throws(SystemError) -> Int {
        try named { () throws(SystemError) in try descriptor.write(bytes) }
    }

    /// Writes every byte (short writes continued, EINTR retried).
    public func writeAll(_ bytes: UnsafeRawBufferPointer) throws(SystemError) {
        try named { () throws(SystemError) in try descriptor.writeAll(bytes) }
    }

    /// Writes every byte of an array.
    public func writeAll(_ bytes: [UInt8]) throws(SystemError) {
        try bytes.withUnsafeBytes { p in Result { () throws(SystemError) in try writeAll(p) } }.get()
    }

    /// Writes every byte at `offset`.
    public func writeAll(_ bytes: UnsafeRawBufferPointer, at offset: Int64) throws(SystemError) {
        try named { () throws(SystemError) in try descriptor.writeAll(bytes, at: offset) }
    }

    /// Flushes the data to the device.
    public func sync() throws(SystemError) { try named { () throws(SystemError) in try descriptor.sync() } }

    /// Cuts the file to `length` bytes.
    public func truncate(to length: Int64) throws(SystemError) {
        try named { () throws(SystemError) in try descriptor.truncate(to: length) }
    }

    /// Moves the file position to `offset`.
    public func seek(to offset: Int64) throws(SystemError) {
        try named { () throws(SystemError) in _ = try descriptor.seek(to: offset) }
    }

    /// Moves the file position to the end; returns it.
    @discardableResult
    public func seekToEnd() throws(SystemError) -> Int64 {
        try named { () throws(SystemError) in try descriptor.seekToEnd() }
    }

    /// What the file is.
    public func status() throws(SystemError) -> FileStatus {
        try named { () throws(SystemError) in try descriptor.status() }
    }

    /// Takes an advisory lock; without `wait`, false when another open file holds it.
    public func lock(_ kind: FileDescriptor.LockKind, wait: Bool = false) throws(SystemError) -> Bool {
        try named { () throws(SystemError) in try descriptor.lock(kind, wait: wait) }
    }

    /// Whether the file is a terminal.
    public var isTerminal: Bool { descriptor.isTerminal }

    /// Closes the file (once; later calls do nothing).
    public func close() throws(SystemError) {
        guard owned && !closed else { return }
        closed = true
        try named { () throws(SystemError) in try descriptor.close() }
    }
}
