import Foundation
import SystemLayer
import TraceFrames
import TraceModel

extension TraceRecorder {
    /// Writes one file a user can attach to a ticket: `bundles/SESSION-STAMP.rtcbundle` in the folder, an
    /// uncompressed POSIX tar archive holding `manifest.json` (format version, session id, report ids,
    /// the parts with their sizes and SHA-256, the recorder's version) and the session's closed parts as
    /// they are. Returns its URL; `rtctrace` reads it wherever it reads a session, and `tar -tf` lists it.
    ///
    /// `session`: nil for the session being recorded, whose open part is closed first when it holds
    /// records (this waits for the writer, up to 10 s); another id for a session an earlier run left in
    /// the folder. `lastMinutes`: only the parts that cover the last so many minutes (nil: all the
    /// session's parts the folder still holds, within its caps). Call it from a thread that may wait
    /// for the disk, never the main thread. Throws a `BundleError` naming what went wrong.
    public func exportBundle(session: String? = nil, lastMinutes: Double? = nil) throws -> URL {
        let live = sessionId
        let wanted = session ?? live
        if wanted == live, writer != nil, !onWriterThread {
            let done = DispatchSemaphore(value: 0)
            core.lock.lock()
            let running = !core.finished && !core.stopRequested
            if running { core.rotations.append(RotationRequest(done: { _ in done.signal() }, onlyIfRecords: true)) }
            core.lock.unlock()
            if running {
                core.wakeWriter()
                _ = done.wait(timeout: .now() + .seconds(10))
            }
        }
        let reports = core.lock.withLock { wanted == live ? core.reportIds : [] }
        return try BundleWriter(directory: TraceDirectory(root: configuration.directory), protection: configuration.fileProtection)
            .write(session: wanted, reportIds: reports, lastMinutes: lastMinutes, nowWallMs: configuration.clock.wallMilliseconds())
    }
}

/// Why a bundle could not be written.
public struct BundleError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What went wrong, naming the file.
    public var description: String
    init(_ description: String) { self.description = description }
}

/// Writes a session's closed parts into one ustar archive with its manifest first.
struct BundleWriter {
    let directory: TraceDirectory
    let protection: RecorderConfiguration.FileProtection

    /// The bundle of `session`'s parts that cover the last `lastMinutes` (all when nil); its URL.
    func write(session: String, reportIds: [String], lastMinutes: Double?, nowWallMs: Int64) throws -> URL {
        var parts = directory.closed().filter { $0.name.session == session }.sorted { $0.name.part < $1.name.part }
        guard !parts.isEmpty else {
            throw BundleError(RecorderWords.nothingToBundle(session: session, root: directory.root))
        }
        if let minutes = lastMinutes {
            // A part covers the time from its start to the next part's start (the last one: to now).
            let from = nowWallMs - Int64(max(0, minutes) * 60_000)
            let ends = parts.indices.map { i in i + 1 < parts.count ? parts[i + 1].name.startWallMs ?? nowWallMs : nowWallMs }
            let first = parts.indices.first { ends[$0] >= from } ?? parts.count - 1
            parts = Array(parts[first...])
        }
        var entries: [(name: String, path: String, size: Int, sha: String)] = []
        for p in parts {
            let (size, sha) = try Self.digest(p.path)
            entries.append((Self.memberName(p.name), p.path, size, sha))
        }
        let manifest = BundleManifest(session: session, reportIds: reportIds,
                                      parts: entries.map { .init(name: $0.name, size: $0.size, sha256: $0.sha) },
                                      createdAt: WallTime.iso(nowWallMs))
        let name = "\(session)-\(WallTime.stamp(nowWallMs))\(BundleManifest.suffix)"
        let path = directory.bundles + "/" + name
        let temporary = directory.bundles + "/." + name + ".writing"
        do {
            try FileManager.default.createDirectory(atPath: directory.bundles, withIntermediateDirectories: true)
        } catch { throw BundleError("cannot create \(directory.bundles): \(TraceDirectory.reason(error))") }
        let out: OpenFile
        do { out = try OpenFile(temporary, .writeOnly, options: [.create, .truncate, .noFollow, .closeOnExec]) } catch {
            throw BundleError("cannot create \(temporary): \(error.reason)")
        }
        do {
            let mtime = nowWallMs / 1000
            let json = manifest.json
            try out.writeAll(Ustar.header(name: BundleManifest.fileName, size: json.count, mtime: mtime))
            try out.writeAll(json + [UInt8](repeating: 0, count: Ustar.padding(json.count)))
            for e in entries {
                try out.writeAll(Ustar.header(name: e.name, size: e.size, mtime: mtime))
                try Self.copy(e.path, size: e.size, sha: e.sha, to: out)
                try out.writeAll([UInt8](repeating: 0, count: Ustar.padding(e.size)))
            }
            try out.writeAll(Ustar.end)
            try out.sync()
            try out.close()
            try FileSystem.rename(temporary, to: path)
        } catch {
            try? out.close()
            FileSystem.removeIfPresent(temporary)
            if let e = error as? BundleError { throw e }
            throw BundleError("cannot write \(path): \(error)")
        }
        directory.protect(path, protection)
        return URL(fileURLWithPath: path)
    }

    /// A member's name: the part's file name (a longer one than a header holds: `pNNNN.trace.zst`).
    static func memberName(_ name: TraceFileName) -> String {
        name.fileName.utf8.count <= Ustar.maxName ? name.fileName : "p\(name.part)\(TraceFileName.suffix)"
    }

    /// The size and SHA-256 of a file.
    static func digest(_ path: String) throws -> (Int, String) {
        var hasher = SHA256.Hasher()
        var size = 0
        try read(path) { chunk in
            hasher.update(chunk)
            size += chunk.count
        }
        return (size, SHA256.hex(hasher.finish()))
    }

    /// Copies a part into the archive, checking that it is still what the manifest says.
    static func copy(_ path: String, size: Int, sha: String, to out: OpenFile) throws {
        var hasher = SHA256.Hasher()
        var copied = 0
        try read(path) { chunk in
            hasher.update(chunk)
            copied += chunk.count
            guard copied <= size else { return }
            try out.writeAll(UnsafeRawBufferPointer(chunk))
        }
        guard copied == size, SHA256.hex(hasher.finish()) == sha else {
            throw BundleError(RecorderWords.changedWhileBundled(path: path))
        }
    }

    /// Reads a file in chunks.
    static func read(_ path: String, _ body: (UnsafeBufferPointer<UInt8>) throws -> Void) throws {
        let file: OpenFile
        do { file = try OpenFile(path, .readOnly, options: [.noFollow, .closeOnExec]) } catch {
            throw BundleError(RecorderWords.cannotReadForBundle(path: path, reason: error.reason))
        }
        defer { try? file.close() }
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n: Int
            do { n = try buffer.withUnsafeMutableBytes { try file.read(into: $0) } } catch {
                throw BundleError("cannot read \(path): \((error as? SystemError)?.reason ?? "\(error)")")
            }
            if n == 0 { return }
            try buffer.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[0..<n])) }
        }
    }
}
