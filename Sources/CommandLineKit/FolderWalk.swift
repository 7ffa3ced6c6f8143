import SystemLayer
import TraceCodec

/// A folder tree walked safely, and the test of whether a path may be touched as part of it.
///
/// Only regular files whose real path is inside the tree are yielded. Directory links are never
/// followed (they lead out of the tree, or back into it: two links to `.` made the old walk run
/// forever, a link to `..` walked the parent), and a visited set of (device, inode) stops any
/// other cycle (bind mounts). FIFOs, devices, sockets and the kernel's files (`/proc`, `/sys`) are
/// skipped: reading a FIFO or `/proc/kmsg` would block.
package struct FolderWalk {
    /// The folder as given.
    package let root: String
    /// Its real path: what "inside the tree" is measured against.
    package let realRoot: String

    /// A walk of `root`, which must be a directory.
    package init(_ root: String) throws(SystemError) {
        self.root = root
        realRoot = try FileSystem.realPath(root)
    }

    /// The tree a single file belongs to: its own folder.
    package static func around(file path: String) throws(SystemError) -> FolderWalk {
        guard let slash = path.lastIndex(of: "/") else { return try FolderWalk(".") }
        return try FolderWalk(slash == path.startIndex ? "/" : String(path[..<slash]))
    }

    /// A path below the walk that it did not follow, and why.
    package struct Skipped {
        package let path: String
        package let reason: String
    }

    /// Every file below the root, sorted by name at each level; `links` false leaves out links
    /// even to files inside the tree (for renames and deletes, which must touch regular files only).
    package func files(skipHidden: Bool, links: Bool = true) -> (files: [String], skipped: [Skipped]) {
        var files: [String] = [], skipped: [Skipped] = []
        var visited: Set<FileIdentity> = []
        if let top = try? FileSystem.status(root) { visited.insert(top.identity) }
        func walk(_ dir: String) {
            // A folder or entry that cannot be read is said (the traces in it would be passed over in silence).
            let names: [String]
            do { names = try FileSystem.entries(of: dir) } catch {
                skipped.append(Skipped(path: dir, reason: TriageInputs.unlistable(error)))
                return
            }
            for name in names.sorted() where !(skipHidden && name.hasPrefix(".")) {
                let path = dir.hasSuffix("/") ? dir + name : dir + "/" + name
                let st: FileStatus
                do { st = try FileSystem.status(path, followLinks: false) } catch {
                    skipped.append(Skipped(path: path, reason: TriageInputs.unexaminable(error)))
                    continue
                }
                switch st.type {
                case .directory:
                    if visited.insert(st.identity).inserted { walk(path) }
                case .regular:
                    if let fs = FileSystem.kernelFileSystem(path) {
                        skipped.append(Skipped(path: path, reason: KitMessageWords.kernelFile(fs)))
                    } else {
                        files.append(path)
                    }
                case .symbolicLink:
                    if let why = refusal(path, links: links) { skipped.append(Skipped(path: path, reason: why)) } else { files.append(path) }
                default:
                    skipped.append(Skipped(path: path, reason: KitMessageWords.notARegularFile))
                }
            }
        }
        walk(root)
        return (files, skipped)
    }

    /// Why `path` may not be read as part of this tree, or nil when it may: it must be a regular
    /// file (or, with `links`, a link to one) whose real path is inside the tree, and, with
    /// `singleName`, whose identity (device and inode) has no other name: a hard link's other name may be
    /// outside the tree (a snapshot hard-linked to a file outside was read and printed in the diff).
    package func refusal(_ path: String, links: Bool = true, singleName: Bool = false) -> String? {
        guard let own = try? FileSystem.status(path, followLinks: false) else { return KitMessageWords.cannotBeRead }
        if singleName, let target = try? FileSystem.status(path), target.type == .regular, target.linkCount > 1 {
            return KitMessageWords.hardLinks(target.linkCount, target.identity.device, target.identity.inode, root)
        }
        switch own.type {
        case .regular: break
        case .symbolicLink:
            guard let target = try? FileSystem.status(path) else { return KitMessageWords.aSymbolicLinkThatLeadsNowhere }
            if target.type == .directory { return KitMessageWords.aLinkToAFolderNot }
            guard links else { return KitMessageWords.aSymbolicLinkNotARegular }
            guard target.type == .regular else { return KitMessageWords.aLinkToSomethingThatIs }
        default: return KitMessageWords.notARegularFile
        }
        if let fs = FileSystem.kernelFileSystem(path) { return KitMessageWords.kernelFile(fs) }
        guard let real = try? FileSystem.realPath(path) else { return KitMessageWords.cannotBeResolved }
        let prefix = realRoot.hasSuffix("/") ? realRoot : realRoot + "/"
        return real.hasPrefix(prefix) ? nil : "leads outside \(root)"
    }
}
