#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A POSIX error number, with names for the ones callers decide on.
public struct Errno: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The platform's value.
    public let rawValue: Int32

    /// Wraps a platform error number.
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// The value `errno` holds now, on this thread.
    public static var current: Errno {
        get { Errno(rawValue: errno) }
        set { errno = newValue.rawValue }
    }

    /// ENOENT: no such file or directory.
    public static let noSuchFile = Errno(rawValue: ENOENT)
    /// EEXIST: the file exists.
    public static let fileExists = Errno(rawValue: EEXIST)
    /// EINTR: a signal interrupted the call.
    public static let interrupted = Errno(rawValue: EINTR)
    /// EWOULDBLOCK: a non-blocking call would have waited (a lock held elsewhere).
    public static let wouldBlock = Errno(rawValue: EWOULDBLOCK)
    /// ENOSPC: no space left on the device.
    public static let noSpace = Errno(rawValue: ENOSPC)
    /// EIO: a low-level input/output error.
    public static let ioError = Errno(rawValue: EIO)
    /// EINVAL: an invalid argument (e.g. `fsync` of a file that cannot be synced).
    public static let invalidArgument = Errno(rawValue: EINVAL)
    /// ENOTDIR: a path component is not a directory.
    public static let notDirectory = Errno(rawValue: ENOTDIR)
    /// EISDIR: the path is a directory.
    public static let isDirectory = Errno(rawValue: EISDIR)
    /// ELOOP: too many symbolic links, or `O_NOFOLLOW` met one.
    public static let symlinkLoop = Errno(rawValue: ELOOP)
    /// EACCES: permission denied.
    public static let accessDenied = Errno(rawValue: EACCES)
    /// EPIPE: the reading end of a pipe is closed.
    public static let brokenPipe = Errno(rawValue: EPIPE)
    /// ESPIPE: the file cannot seek (a pipe or a terminal).
    public static let illegalSeek = Errno(rawValue: ESPIPE)
    /// EFBIG: the file is larger than allowed.
    public static let fileTooLarge = Errno(rawValue: EFBIG)
    /// EROFS: a read-only file system.
    public static let readOnlyFileSystem = Errno(rawValue: EROFS)
    /// EPERM: the operation is not permitted (what iOS answers for a file its data protection has locked).
    public static let notPermitted = Errno(rawValue: EPERM)
    /// EDQUOT: the disk quota is exceeded (full, for this user).
    public static let quotaExceeded = Errno(rawValue: EDQUOT)

    /// The system's message, e.g. "No space left on device".
    public var description: String { String(cString: strerror(rawValue)) }
}

/// A failed system call: its error number, the call's name and the path it was about.
public struct SystemError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Why it failed.
    public var errno: Errno
    /// The call that failed, e.g. "open" or "write".
    public var call: String
    /// The file involved, when there is one.
    public var path: String?

    /// Describes a failure of `call` on `path`.
    public init(_ errno: Errno, call: String, path: String? = nil) {
        self.errno = errno
        self.call = call
        self.path = path
    }

    /// The system's message alone, e.g. "No space left on device".
    public var reason: String { errno.description }

    /// `PATH: CALL failed: reason`, readable without the source.
    public var description: String {
        (path.map { "\($0): " } ?? "") + "\(call) failed: \(reason)"
    }

    /// The same error about another path (a temporary file's error told about the file it becomes).
    public func about(_ path: String) -> SystemError {
        SystemError(errno, call: call, path: path)
    }
}
