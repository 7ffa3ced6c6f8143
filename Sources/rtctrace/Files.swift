import SystemLayer

/// Whether a path exists.
func fileExists(_ path: String) -> Bool { FileSystem.exists(path) }

/// Whether a path is a directory.
func isDirectory(_ path: String) -> Bool { FileSystem.isDirectory(path) }

/// A file's size in bytes (0 when it cannot be read).
func fileSize(_ path: String) -> Int { Int((try? FileSystem.status(path))?.size ?? 0) }

/// Every file below `dir`, recursively, in directory order; `skipHidden` leaves out names starting with a dot.
func filesBelow(_ dir: String, skipHidden: Bool) -> [String] {
    var out: [String] = []
    guard let names = try? FileSystem.entries(of: dir) else { return [] }
    for name in names {
        if skipHidden && name.hasPrefix(".") { continue }
        let path = dir.hasSuffix("/") ? dir + name : dir + "/" + name
        if isDirectory(path) { out += filesBelow(path, skipHidden: skipHidden) } else { out.append(path) }
    }
    return out
}
