import Glibc

/// Whether a path exists.
func fileExists(_ path: String) -> Bool { access(path, F_OK) == 0 }

/// Whether a path is a directory.
func isDirectory(_ path: String) -> Bool {
    var st = stat()
    return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR
}

/// A file's size in bytes (0 when it cannot be read).
func fileSize(_ path: String) -> Int {
    var st = stat()
    return stat(path, &st) == 0 ? Int(st.st_size) : 0
}
