#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Calls on paths: status, rename, remove, real path, folders.
public enum FileSystem {
    /// The status of `path`; with `followLinks` false a symbolic link is described itself (`lstat`).
    public static func status(_ path: String, followLinks: Bool = true) throws(SystemError) -> FileStatus {
        var st = stat()
        if followLinks {
            _ = try checked("stat", path: path) { PathName.withCString(path) { stat($0, &st) } }
        } else {
            _ = try checked("lstat", path: path) { PathName.withCString(path) { lstat($0, &st) } }
        }
        return FileStatus(st)
    }

    /// The status of `path`, or nil when nothing is there (ENOENT, or ENOTDIR on a path through a file).
    public static func statusIfExists(_ path: String, followLinks: Bool = true) throws(SystemError) -> FileStatus? {
        do {
            return try status(path, followLinks: followLinks)
        } catch where error.errno == .noSuchFile || error.errno == .notDirectory {
            return nil
        }
    }

    /// Whether something exists at `path` (following links: a dangling link does not count).
    public static func exists(_ path: String) -> Bool { (try? status(path)) != nil }

    /// Whether `path` is a directory (following links).
    public static func isDirectory(_ path: String) -> Bool { (try? status(path))?.type == .directory }

    /// Renames `source` to `target`, replacing `target` (a link there is replaced, not followed).
    public static func rename(_ source: String, to target: String) throws(SystemError) {
        _ = try checked("rename", path: target) { system_rename(source, target) }
        stepMade(.renamed)
    }

    /// Removes a file (not a directory).
    public static func remove(_ path: String) throws(SystemError) {
        _ = try checked("unlink", path: path) { PathName.withCString(path) { unlink($0) } }
        stepMade(.removed)
    }

    /// Removes a file if it is there; any other failure is ignored (cleanup after an error).
    public static func removeIfPresent(_ path: String) {
        if PathName.withCString(path, { unlink($0) }) == 0 { stepMade(.removed) }
    }

    /// Bytes free for an ordinary user on the file system holding `path` (`statvfs`: available blocks
    /// times the fragment size). A test's fault hook may answer instead (debug builds only).
    public static func availableBytes(_ path: String) throws(SystemError) -> Int64 {
        #if DEBUG
        if let free = SystemFaults.injector?.availableBytes(path) { return free }
        #endif
        var st = statvfs()
        _ = try checked("statvfs", path: path) { PathName.withCString(path) { statvfs($0, &st) } }
        return Int64(st.f_bavail) &* Int64(st.f_frsize)
    }

    /// Tells the test's fault hook about a change made on the disk (debug builds only).
    @inline(__always)
    static func stepMade(_ step: FaultInjector.Step) {
        #if DEBUG
        SystemFaults.injector?.didStep(step)
        #endif
    }

    /// Creates a directory.
    public static func makeDirectory(_ path: String, permissions: UInt16 = 0o755) throws(SystemError) {
        _ = try checked("mkdir", path: path) { PathName.withCString(path) { mkdir($0, mode_t(permissions)) } }
    }

    /// Creates a directory and every missing one above it (`mkdir -p`); a directory already there is fine,
    /// anything else in the way is an error naming it.
    public static func makeDirectories(_ path: String, permissions: UInt16 = 0o755) throws(SystemError) {
        guard !path.isEmpty, !isDirectory(path) else { return }
        var prefix = path.hasPrefix("/") ? "/" : ""
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            prefix += (prefix.isEmpty || prefix.hasSuffix("/") ? "" : "/") + part
            if isDirectory(prefix) { continue }
            do throws(SystemError) { try makeDirectory(prefix, permissions: permissions) } catch {
                // Made meanwhile by another process (a pod of the same Job): fine when it is a folder.
                if error.errno == .fileExists && isDirectory(prefix) { continue }
                throw error
            }
        }
    }

    /// Where the kernel's pseudo-file systems are mounted: their "regular" files are the kernel's
    /// interfaces (`/proc/kmsg` blocks a reader forever), never traces.
    static let kernelMounts = ["/proc", "/sys", "/sys/kernel/debug", "/sys/kernel/tracing", "/sys/kernel/security",
                               "/sys/kernel/config", "/sys/fs/cgroup", "/sys/fs/bpf", "/sys/fs/pstore",
                               "/sys/firmware/efi/efivars", "/dev/pts", "/dev/mqueue"]

    /// The devices those mount points are on, keyed to the mount point; one that is on the root's
    /// device is an ordinary folder there (nothing mounted), and is left out.
    static let kernelDevices: [UInt64: String] = {
        let root = (try? status("/"))?.identity.device
        var out: [UInt64: String] = [:]
        for m in kernelMounts {
            guard let dev = (try? status(m))?.identity.device, dev != root, out[dev] == nil else { continue }
            out[dev] = m
        }
        return out
    }()

    /// The mount point of the kernel pseudo-file system `path` lives on (following links: a link into
    /// `/proc` is on it), or nil for an ordinary file system (or when it cannot be told).
    public static func kernelFileSystem(_ path: String) -> String? {
        guard let dev = (try? status(path))?.identity.device else { return nil }
        return kernelDevices[dev]
    }

    /// The absolute path with every link, `.` and `..` resolved.
    public static func realPath(_ path: String) throws(SystemError) -> String {
        let p = try checked("realpath", path: path) { PathName.withCString(path) { realpath($0, nil) } }
        defer { free(p) }
        return PathName.decode(UnsafeBufferPointer(start: UnsafeRawPointer(p).assumingMemoryBound(to: UInt8.self), count: strlen(p)))
    }

    /// The names in a directory, without `.` and `..`, in the order the system gives them.
    public static func entries(of directory: String) throws(SystemError) -> [String] {
        let d = try checked("opendir", path: directory) { PathName.withCString(directory) { opendir($0) } }
        defer { closedir(d) }
        var names: [String] = []
        // readdir returns nil both at the end and on error; errno tells them apart.
        Errno.current = Errno(rawValue: 0)
        while let e = readdir(d) {
            // The name is read where it lies, up to its NUL: a copy of the whole `d_name` field reads past the
            // end of a short last entry, which may be the end of the mapped memory.
            let name = withUnsafeBytes(of: &e.pointee.d_name) { PathName.decode($0.prefix { $0 != 0 }) }
            if name != "." && name != ".." { names.append(name) }
        }
        if Errno.current.rawValue != 0 { throw SystemError(.current, call: "readdir", path: directory) }
        return names
    }
}

@inline(__always) private func system_rename(_ a: String, _ b: String) -> Int32 {
    PathName.withCString(a) { ca in PathName.withCString(b) { cb in rename(ca, cb) } }
}
