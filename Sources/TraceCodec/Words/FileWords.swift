import SystemLayer

// What the inputs and files a command is given are told: a path that names nothing, an entry a folder walk
// gives no row, a file that cannot be opened, copied, locked or moved into place.
package enum FileWords {
    static func noSuchListFile(_ list: String) -> String { "\(list): no such list file" }
    package static func noSuchFileOrFolder(_ path: String) -> String { "\(path): no such file or folder" }
    package static func noSuchFile(_ path: String) -> String { "\(path): no such file" }
    package static func alreadyExists(_ path: String) -> String { "\(path): already exists (use --force to overwrite)" }
    static let isADirectory = "is a directory"
    static let cannotMoveIntoPlace = "cannot move the finished file into place"
    static func cannotKeepACopy(_ dir: String, _ error: SystemError) -> String {
        "cannot keep a copy of the input to read it again (\(dir): \(error.reason))"
    }
    static func lockHeld(refusing what: String) -> String {
        "another writer is appending to this trace (it holds the lock); refusing \(what)"
    }
    static let toReplace = "to replace it"
    static func largerThan(_ limit: Int) -> String { "larger than \(limit) bytes" }
    static let outOfMemoryDecompressing = "out of memory creating a decompression context"
}

extension TriageInputs {
    /// Why a folder cannot be searched, from the error listing it.
    package static func unlistable(_ error: SystemError) -> String {
        "a folder that cannot be read (\(error.reason)): the traces in it, if any, were not read"
    }

    /// Why an entry cannot be told apart, from the error reading its type.
    package static func unexaminable(_ error: SystemError) -> String {
        "cannot be examined (\(error.reason)): not read, nor searched if it is a folder"
    }
}

extension TriageInputs.SkipReason {
    /// Why the entry got no row, in words (`fileSystem`: the kernel's file system it is on).
    package func words(fileSystem: String? = nil) -> String {
        switch self {
        case .notATraceName: "its name is not a trace name (\(TriageInputs.traceSuffixes.map { "*" + $0 }.joined(separator: ", ")))"
        case .hidden: "a hidden name, not read"
        case .fifo: "not a regular file (a FIFO, a named pipe), not read: reading it would block"
        case .device: "not a regular file (a device), not read"
        case .socket: "not a regular file (a socket), not read"
        case .kernelFile: "a kernel file (on \(fileSystem ?? "a kernel file system")), not read"
        }
    }
}

