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

/// Every file below `dir`, recursively, in directory order; `skipHidden` leaves out names starting with a dot.
func filesBelow(_ dir: String, skipHidden: Bool) -> [String] {
    var out: [String] = []
    guard let d = opendir(dir) else { return [] }
    defer { closedir(d) }
    while let e = readdir(d) {
        let name = withUnsafeBytes(of: e.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        if name == "." || name == ".." || (skipHidden && name.hasPrefix(".")) { continue }
        let path = dir.hasSuffix("/") ? dir + name : dir + "/" + name
        if isDirectory(path) { out += filesBelow(path, skipHidden: skipHidden) } else { out.append(path) }
    }
    return out
}
