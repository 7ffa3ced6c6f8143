#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A file's identity: its device and inode, equal for every path (link, hard link) to the same file.
public struct FileIdentity: Hashable, Sendable {
    /// The device holding the file.
    public var device: UInt64
    /// The file's inode number on that device.
    public var inode: UInt64

    /// Creates an identity.
    public init(device: UInt64, inode: UInt64) {
        self.device = device
        self.inode = inode
    }
}

/// What kind of object a path names.
public enum FileType: Sendable, Equatable {
    /// A regular file.
    case regular
    /// A directory.
    case directory
    /// A symbolic link (only seen when links are not followed).
    case symbolicLink
    /// A character device such as /dev/null or a terminal.
    case characterDevice
    /// A block device such as a disk.
    case blockDevice
    /// A named pipe.
    case fifo
    /// A Unix-domain socket.
    case socket
    /// Anything else.
    case unknown

    init(mode: mode_t) {
        switch mode & S_IFMT {
        case S_IFREG: self = .regular
        case S_IFDIR: self = .directory
        case S_IFLNK: self = .symbolicLink
        case S_IFCHR: self = .characterDevice
        case S_IFBLK: self = .blockDevice
        case S_IFIFO: self = .fifo
        case S_IFSOCK: self = .socket
        default: self = .unknown
        }
    }
}

/// The fields of `stat(2)` the project uses.
public struct FileStatus: Sendable, Equatable {
    /// Device and inode.
    public var identity: FileIdentity
    /// The kind of object.
    public var type: FileType
    /// Size in bytes.
    public var size: Int64
    /// When the contents last changed, in whole seconds since 1970 (wall clock).
    public var modifiedSeconds: Int64
    /// How many names (hard links) the file has.
    public var linkCount: Int

    init(_ st: stat) {
        identity = FileIdentity(device: UInt64(truncatingIfNeeded: st.st_dev), inode: UInt64(truncatingIfNeeded: st.st_ino))
        type = FileType(mode: st.st_mode)
        size = Int64(st.st_size)
        linkCount = Int(st.st_nlink)
        #if canImport(Darwin)
        modifiedSeconds = Int64(st.st_mtimespec.tv_sec)
        #else
        modifiedSeconds = Int64(st.st_mtim.tv_sec)
        #endif
    }
}

extension FileDescriptor {
    /// An advisory whole-file lock (`flock(2)`).
    public enum LockKind: Sendable {
        /// LOCK_SH: many holders, no exclusive one.
        case shared
        /// LOCK_EX: one holder.
        case exclusive
    }

    /// Takes the lock; without `wait`, returns false at once when another open file holds it.
    public func lock(_ kind: LockKind, wait: Bool = false) throws(SystemError) -> Bool {
        let op = (kind == .shared ? LOCK_SH : LOCK_EX) | (wait ? 0 : LOCK_NB)
        do {
            _ = try checked("flock") { flock(rawValue, op) }
            return true
        } catch where error.errno == .wouldBlock {
            return false
        }
    }

    /// Releases a lock taken with `lock`.
    public func unlock() throws(SystemError) {
        _ = try checked("flock") { flock(rawValue, LOCK_UN) }
    }
}
