import Foundation
import SystemLayer
import TraceModel

/// The recorder's folder: the open trace at its top, closed traces in `outbox/` (for the uploader) or
/// `local/` (kept until promoted), and the caps on their total size and age.
///
/// A trace file is named `STAMP-SESSION-pNNNN.trace.zst`, where STAMP is the wall-clock start of the
/// part in UTC (`20261129T100000123Z`), so names sort oldest first.
struct TraceDirectory {
    let root: String
    var outbox: String { root + "/outbox" }
    var local: String { root + "/local" }
    /// Bundles `exportBundle` wrote, for the app to attach or upload.
    var bundles: String { root + "/bundles" }

    private var fm: FileManager { FileManager.default }

    /// Creates the folder and its subfolders when missing, with their data protection (new files in a
    /// folder take its class).
    func create(protection: RecorderConfiguration.FileProtection) throws {
        for dir in [root, outbox, local, bundles] {
            if !fm.fileExists(atPath: dir) {
                do { try fm.createDirectory(atPath: dir, withIntermediateDirectories: true) } catch {
                    throw RecorderFailure(RecorderWords.cannotCreateFolder(dir, reason: Self.reason(error)))
                }
            }
            protect(dir, protection)
        }
    }

    /// Gives a file or folder the data protection class (where the platform has data protection).
    func protect(_ path: String, _ protection: RecorderConfiguration.FileProtection) {
        #if canImport(Darwin) && !os(macOS)
        try? fm.setAttributes([.protectionKey: FileProtectionType(rawValue: protection.rawValue)], ofItemAtPath: path)
        #endif
    }

    /// The path of a part in the top folder.
    func openPath(_ name: TraceFileName) -> String { root + "/" + name.fileName }

    /// Trace files left in the top folder (open ones, or ones a process that died left there), oldest first.
    func leftOpen() -> [TraceFileName] { list(root) }

    /// Closed trace files, in `outbox/` and `local/`, oldest first, with their folder.
    func closed() -> [(name: TraceFileName, path: String)] {
        let all = list(outbox).map { ($0, outbox + "/" + $0.fileName) } + list(local).map { ($0, local + "/" + $0.fileName) }
        return all.sorted { $0.0 < $1.0 }
    }

    /// Moves a file from the top folder into `outbox/` or `local/` (one `rename`, so an uploader never
    /// sees half a file); returns its new path.
    @discardableResult
    func hand(_ name: TraceFileName, toOutbox: Bool) throws -> String {
        let to = (toOutbox ? outbox : local) + "/" + name.fileName
        try move(openPath(name), to: to)
        return to
    }

    /// Moves every file of `local/` into `outbox/`; returns their new paths.
    func promoteAll() throws -> [String] {
        var moved: [String] = []
        for name in list(local) {
            try move(local + "/" + name.fileName, to: outbox + "/" + name.fileName)
            moved.append(outbox + "/" + name.fileName)
        }
        return moved
    }

    /// Removes the hidden temporaries of parts whose creation a crash interrupted (`.NAME.creating`:
    /// only the header was in them, and no record); returns their names.
    func removeTemporaries() -> [String] {
        let names = ((try? fm.contentsOfDirectory(atPath: root)) ?? []).filter { n in
            n.hasPrefix(".") && n.hasSuffix(".creating") && TraceFileName(fileName: String(n.dropFirst().dropLast(".creating".count))) != nil
        }
        return names.filter { n in
            // One another live recorder is creating right now holds its lock: leave it.
            guard let f = try? OpenFile(root + "/" + n, .readOnly, options: [.closeOnExec, .noFollow]) else { return false }
            defer { try? f.close() }
            guard (try? f.lock(.exclusive)) == true else { return false }
            return (try? fm.removeItem(atPath: root + "/" + n)) != nil
        }
    }

    /// Renames a file (within the folder, so on one file system: atomic).
    private func move(_ from: String, to: String) throws {
        do { try fm.moveItem(atPath: from, toPath: to) } catch {
            throw RecorderFailure(RecorderWords.cannotMove(from, to: to, reason: Self.reason(error)))
        }
    }

    /// Deletes closed files older than `maxAgeMs`, then the oldest closed files until every trace file
    /// (with the open one, `openBytes`) fits in `maxBytes`. Never touches the open file. Returns what it deleted.
    func enforceCaps(nowWallMs: Int64, maxAgeMs: Int64, maxBytes: Int, openBytes: Int) -> (deleted: [String], failures: [String]) {
        var deleted: [String] = [], failures: [String] = []
        var files: [(path: String, name: TraceFileName, size: Int)] = closed().map { ($0.path, $0.name, size($0.path)) }
        func delete(_ i: Int) {
            do {
                try fm.removeItem(atPath: files[i].path)
                deleted.append(files[i].path)
            } catch {
                // Gone already (an uploader took it) is as good as deleted.
                if fm.fileExists(atPath: files[i].path) { failures.append("\(files[i].path): \(Self.reason(error))") } else { deleted.append(files[i].path) }
            }
            files.remove(at: i)
        }
        var i = 0
        while i < files.count {
            if let start = files[i].name.startWallMs, nowWallMs - start > maxAgeMs { delete(i) } else { i += 1 }
        }
        var total = openBytes + files.reduce(0) { $0 + $1.size }
        while total > maxBytes, !files.isEmpty {
            total -= files[0].size
            delete(0)
        }
        return (deleted, failures)
    }

    /// The size of a file, 0 when it is gone.
    func size(_ path: String) -> Int {
        ((try? fm.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
    }

    private func list(_ dir: String) -> [TraceFileName] {
        ((try? fm.contentsOfDirectory(atPath: dir)) ?? []).compactMap(TraceFileName.init(fileName:)).sorted()
    }

    static func reason(_ error: Error) -> String {
        let ns = error as NSError
        if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError { return underlying.localizedDescription }
        return ns.localizedDescription
    }
}

/// The name of one part of a recorded session: `STAMP-SESSION-pNNNN.trace.zst`.
struct TraceFileName: Comparable, Hashable {
    /// The part's wall-clock start, `yyyyMMddTHHmmssSSSZ`.
    var stamp: String
    /// The session id.
    var session: String
    /// The part number, from 1.
    var part: Int

    static let suffix = ".trace.zst"

    init(stamp: String, session: String, part: Int) {
        self.stamp = stamp
        self.session = session
        self.part = part
    }

    init?(fileName: String) {
        guard fileName.hasSuffix(Self.suffix), !fileName.hasPrefix(".") else { return nil }
        let base = fileName.dropLast(Self.suffix.count)
        guard let dash = base.firstIndex(of: "-"), let p = base.range(of: "-p", options: .backwards), p.lowerBound > dash,
              let part = Int(base[p.upperBound...]), part >= 1 else { return nil }
        stamp = String(base[..<dash])
        session = String(base[base.index(after: dash)..<p.lowerBound])
        self.part = part
        guard !session.isEmpty, startWallMs != nil else { return nil }
    }

    var fileName: String { "\(stamp)-\(session)-p\(String(repeating: "0", count: max(0, 4 - String(part).count)))\(part)\(Self.suffix)" }

    /// The part's start, from its stamp.
    var startWallMs: Int64? { WallTime.parseStamp(stamp) }

    static func < (a: TraceFileName, b: TraceFileName) -> Bool {
        (a.stamp, a.session, a.part) < (b.stamp, b.session, b.part)
    }
}

/// A failure the recorder reports to the SDK's log: a sentence a support engineer understands, and
/// whether recording pauses for it (a locked volume, a full disk, low free space) or stops.
struct RecorderFailure: Error, CustomStringConvertible {
    var description: String
    /// The pause it causes; nil: recording stops.
    var pause: PauseReason?

    init(_ description: String, pause: PauseReason? = nil) {
        self.description = description
        self.pause = pause
    }

    /// A failed system call: ENOSPC and EDQUOT are a full disk, EPERM and EACCES a volume the device's
    /// data protection has locked (iOS answers a write to a protected file so while the device is
    /// locked); any other error stops recording.
    init(_ description: String, errno: Errno?) {
        self.description = description
        switch errno {
        case .noSpace?, .quotaExceeded?: pause = .diskFull
        case .notPermitted?, .accessDenied?: pause = .volumeLocked
        default: pause = nil
        }
    }
}
