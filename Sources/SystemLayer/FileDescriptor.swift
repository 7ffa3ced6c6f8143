#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// An open file descriptor, not owned: the checked calls on it (see `OpenFile` for the owning API).
public struct FileDescriptor: RawRepresentable, Hashable, Sendable {
    /// The platform's descriptor number.
    public let rawValue: Int32

    /// Wraps a descriptor number.
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// Descriptor 0.
    public static let standardInput = FileDescriptor(rawValue: 0)
    /// Descriptor 1.
    public static let standardOutput = FileDescriptor(rawValue: 1)
    /// Descriptor 2.
    public static let standardError = FileDescriptor(rawValue: 2)

    /// How a file is opened for reading and writing.
    public enum AccessMode: Sendable {
        /// O_RDONLY.
        case readOnly
        /// O_WRONLY.
        case writeOnly
        /// O_RDWR.
        case readWrite
    }

    /// Flags of `open(2)` beyond the access mode.
    public struct OpenOptions: OptionSet, Sendable {
        /// The flags, in this module's own numbering (mapped to the platform's in `flags`).
        public let rawValue: UInt32
        /// Creates options from their raw value.
        public init(rawValue: UInt32) { self.rawValue = rawValue }

        /// O_CREAT: create the file if it is missing.
        public static let create = OpenOptions(rawValue: 1 << 0)
        /// O_EXCL: with `create`, fail if the path exists (even as a symlink).
        public static let exclusive = OpenOptions(rawValue: 1 << 1)
        /// O_NOFOLLOW: fail if the last component is a symbolic link.
        public static let noFollow = OpenOptions(rawValue: 1 << 2)
        /// O_CLOEXEC: not inherited by child processes.
        public static let closeOnExec = OpenOptions(rawValue: 1 << 3)
        /// O_TRUNC: cut an existing file to zero length.
        public static let truncate = OpenOptions(rawValue: 1 << 4)
        /// O_APPEND: every write goes to the end.
        public static let append = OpenOptions(rawValue: 1 << 5)
        /// O_NOCTTY: opening a terminal does not make it the controlling one.
        public static let noControllingTerminal = OpenOptions(rawValue: 1 << 6)
        /// O_NONBLOCK: opening a FIFO with no reader fails instead of waiting.
        public static let nonBlocking = OpenOptions(rawValue: 1 << 7)

        var flags: Int32 {
            var f: Int32 = 0
            if contains(.create) { f |= O_CREAT }
            if contains(.exclusive) { f |= O_EXCL }
            if contains(.noFollow) { f |= O_NOFOLLOW }
            if contains(.closeOnExec) { f |= O_CLOEXEC }
            if contains(.truncate) { f |= O_TRUNC }
            if contains(.append) { f |= O_APPEND }
            if contains(.noControllingTerminal) { f |= O_NOCTTY }
            if contains(.nonBlocking) { f |= O_NONBLOCK }
            return f
        }
    }

    /// Opens `path`; `permissions` apply when the file is created.
    public static func open(_ path: String, _ mode: AccessMode, options: OpenOptions = [.closeOnExec],
                            permissions: UInt16 = 0o644) throws(SystemError) -> FileDescriptor {
        let access: Int32 = switch mode {
        case .readOnly: O_RDONLY
        case .writeOnly: O_WRONLY
        case .readWrite: O_RDWR
        }
        let flags = access | options.flags
        let fd = try checked("open", path: path) { system_open(path, flags, mode_t(permissions)) }
        return FileDescriptor(rawValue: fd)
    }

    /// Closes the descriptor. An EINTR is not retried: the descriptor is gone either way on
    /// Linux, and a retry could close a descriptor another thread has just been given.
    public func close() throws(SystemError) {
        if system_close(rawValue) == -1 && Errno.current != .interrupted {
            throw SystemError(.current, call: "close")
        }
    }

    /// Reads up to `buffer.count` bytes; 0 at the end of the file.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> Int {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        return try checked("read") { system_read(rawValue, base, buffer.count) }
    }

    /// Reads up to `buffer.count` bytes at `offset`, without moving the file position.
    public func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws(SystemError) -> Int {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        return try checked("pread") { pread(rawValue, base, buffer.count, off_t(offset)) }
    }

    /// One `write(2)`: returns how many bytes the system took, which may be fewer than given.
    public func write(_ bytes: UnsafeRawBufferPointer) throws(SystemError) -> Int {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return 0 }
        var count = bytes.count
        #if DEBUG
        if let faults = SystemFaults.injector {
            switch faults.fault(forWriteTo: self, count: count) {
            case nil: break
            case .fail(let e)?: throw SystemError(e, call: "write")
            case .shortWrite(let n)?: count = max(0, min(n, count))
            case .delay(let ns)?: Clock.sleep(nanoseconds: ns)
            }
            if count == 0 { return 0 }
            let n = try checked("write") { system_write(rawValue, base, count) }
            faults.didWrite(to: self, count: bytes.count, written: n)
            return n
        }
        #endif
        return try checked("write") { system_write(rawValue, base, count) }
    }

    /// Writes every byte, looping over short writes; a write that takes nothing fails with ENOSPC.
    public func writeAll(_ bytes: UnsafeRawBufferPointer) throws(SystemError) {
        var off = 0
        while off < bytes.count {
            let n = try write(UnsafeRawBufferPointer(rebasing: bytes[off...]))
            if n == 0 { throw SystemError(.noSpace, call: "write") }
            off += n
        }
    }

    /// Writes every byte at `offset`, without moving the file position.
    public func writeAll(_ bytes: UnsafeRawBufferPointer, at offset: Int64) throws(SystemError) {
        var off = 0
        while off < bytes.count {
            let rest = UnsafeRawBufferPointer(rebasing: bytes[off...])
            let n = try checked("pwrite") { pwrite(rawValue, rest.baseAddress!, rest.count, off_t(offset) + off_t(off)) }
            if n == 0 { throw SystemError(.noSpace, call: "pwrite") }
            off += n
        }
    }

    /// Flushes the file's data and metadata to the device.
    public func sync() throws(SystemError) {
        #if DEBUG
        if let faults = SystemFaults.injector {
            switch faults.fault(forSyncOf: self) {
            case nil, .shortWrite?: break
            case .fail(let e)?: throw SystemError(e, call: "fsync")
            case .delay(let ns)?: Clock.sleep(nanoseconds: ns)
            }
        }
        #endif
        _ = try checked("fsync") { fsync(rawValue) }
    }

    /// Cuts (or extends) the file to `length` bytes.
    public func truncate(to length: Int64) throws(SystemError) {
        _ = try checked("ftruncate") { ftruncate(rawValue, off_t(length)) }
    }

    /// Moves the file position to `offset` from the start; returns it.
    @discardableResult
    public func seek(to offset: Int64) throws(SystemError) -> Int64 {
        Int64(try checked("lseek") { lseek(rawValue, off_t(offset), SEEK_SET) })
    }

    /// Moves the file position to the end; returns it.
    @discardableResult
    public func seekToEnd() throws(SystemError) -> Int64 {
        Int64(try checked("lseek") { lseek(rawValue, 0, SEEK_END) })
    }

    /// What the descriptor refers to.
    public func status() throws(SystemError) -> FileStatus {
        var st = stat()
        _ = try checked("fstat") { fstat(rawValue, &st) }
        return FileStatus(st)
    }

    /// Whether the descriptor is a terminal.
    public var isTerminal: Bool { isatty(rawValue) == 1 }
}

// The raw calls under names that do not collide with this module's methods.
@inline(__always) func system_open(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 {
    PathName.withCString(path) { open($0, flags, mode) }
}
@inline(__always) func system_close(_ fd: Int32) -> Int32 { close(fd) }
@inline(__always) func system_read(_ fd: Int32, _ p: UnsafeMutableRawPointer, _ n: Int) -> Int { read(fd, p, n) }
@inline(__always) func system_write(_ fd: Int32, _ p: UnsafeRawPointer, _ n: Int) -> Int { write(fd, p, n) }

extension FileDescriptor {
    /// Writes a string's UTF-8 bytes whole.
    public func writeAll(string: String) throws(SystemError) {
        var s = string
        try s.withUTF8 { p in Result { () throws(SystemError) in try writeAll(UnsafeRawBufferPointer(p)) } }.get()
    }
}
