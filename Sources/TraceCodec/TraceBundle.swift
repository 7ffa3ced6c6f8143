import SystemLayer
import TraceFrames
import TraceModel

/// A bundle the device recorder wrote (`NAME.rtcbundle`: an uncompressed POSIX tar archive holding
/// `manifest.json` and one session's parts), read as the session it holds.
///
/// Its parts are read in place: `BUNDLE/NAME` names the member NAME of the archive BUNDLE (a path that
/// cannot exist on a file system, since BUNDLE is a file), and every reader opens such a path as that
/// member's bytes. The manifest is checked once per bundle: each part's presence, size and SHA-256; a
/// part that is missing, or whose bytes are not what the manifest says, is a problem the commands say
/// (`verify` fails on it), and a part that fails its checksum is read with a problem of its own.
package struct TraceBundle: Sendable {
    /// The archive.
    package let path: String
    /// Its manifest, nil when there is none that reads.
    package let manifest: BundleManifest?
    /// The archive's members, in their order.
    package let members: [Member]
    /// The parts' paths (`BUNDLE/NAME`), in the manifest's order (then members it does not list).
    package let parts: [String]
    /// What does not check, one sentence each (empty: the manifest checks).
    package let problems: [String]
    /// The members whose bytes are not what the manifest says, with why.
    let mismatched: [String: String]

    /// One member of the archive.
    package struct Member: Sendable, Equatable {
        /// Its name.
        package var name: String
        /// Where its bytes start in the archive.
        package var offset: Int64
        /// How many.
        package var size: Int
    }

    /// Members of an archive read at most (a hostile archive could hold millions of empty ones).
    static let maxMembers = 10_000

    /// Whether `path` names a bundle: its name ends in `.rtcbundle`, or (for a file named outright) it is
    /// a tar archive whose first member is `manifest.json`.
    package static func isBundle(_ path: String, sniff: Bool = false) -> Bool {
        if path.hasSuffix(BundleManifest.suffix) { return FileSystem.status(regular: path) }
        guard sniff, FileSystem.status(regular: path), let file = try? OpenFile(path, .readOnly) else { return false }
        defer { try? file.close() }
        var block = [UInt8](repeating: 0, count: Ustar.block)
        guard (try? block.withUnsafeMutableBytes({ try file.read(into: $0, at: 0) })) == Ustar.block else { return false }
        guard case .success(let entry?) = block.withUnsafeBytes({ Ustar.parse($0) }) else { return false }
        return entry.name == BundleManifest.fileName
    }

    private static let cacheLock = Lock()
    nonisolated(unsafe) private static var cache: [String: TraceBundle] = [:]

    /// The bundle at `path`, read and checked once per command (`CommandInputs`); nil when it is not a tar archive at all.
    package static func open(_ path: String) -> TraceBundle? {
        if let b = cacheLock.withLock({ cache[path] }) { return b }
        guard let b = try? read(path) else { return nil }
        cacheLock.withLock { cache[path] = b }
        return b
    }

    /// Forgets the bundles read (the command that read them has ended).
    static func forgetAll() { cacheLock.withLock { cache = [:] } }

    /// Every bundle read so far by this command, by path (a command says what did not check in each).
    package static var opened: [TraceBundle] { cacheLock.withLock { cache.values.sorted { $0.path < $1.path } } }

    /// Where the member a `BUNDLE/NAME` path names is: nil when the path names none.
    static func locate(_ path: String) -> (bundle: TraceBundle, member: Member)? {
        let bytes = Array(path.utf8), mark = Array((BundleManifest.suffix + "/").utf8)
        guard bytes.count > mark.count else { return nil }
        var i = bytes.count - mark.count
        while i > 0 && !bytes[i..<i + mark.count].elementsEqual(mark) { i -= 1 }
        guard i > 0 else { return nil }
        let archive = String(decoding: bytes[..<(i + mark.count - 1)], as: UTF8.self)
        let name = String(decoding: bytes[(i + mark.count)...], as: UTF8.self)
        guard !name.isEmpty, let b = open(archive), let m = b.members.first(where: { $0.name == name }) else { return nil }
        return (b, m)
    }

    /// Why the member a `BUNDLE/NAME` path names is not what the manifest says, or nil.
    static func mismatch(_ path: String) -> String? {
        guard let (b, m) = locate(path) else { return nil }
        return b.mismatched[m.name]
    }

    /// A member's size, for a `BUNDLE/NAME` path (nil for any other path).
    package static func memberSize(_ path: String) -> Int? { locate(path)?.member.size }

    private static func read(_ path: String) throws -> TraceBundle {
        let file = try OpenFile(path, .readOnly)
        defer { try? file.close() }
        var members: [Member] = []
        var problems: [String] = []
        var offset: Int64 = 0
        var header = [UInt8](repeating: 0, count: Ustar.block)
        while members.count < maxMembers {
            let n = try header.withUnsafeMutableBytes { try file.read(into: $0, at: offset) }
            if n == 0 {
                problems.append(BundleWords.endsWithoutEndBlocks)
                break
            }
            let parsed = header.withUnsafeBytes { Ustar.parse(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
            guard case .success(let entry) = parsed else {
                if case .failure(let f) = parsed { problems.append("at byte \(offset): \(f)") }
                break
            }
            guard let entry else { break }
            if entry.isFile { members.append(Member(name: entry.name, offset: offset + Int64(Ustar.block), size: entry.size)) }
            offset += Int64(Ustar.block + entry.size + Ustar.padding(entry.size))
        }
        guard !members.isEmpty else { throw Ustar.Fault("no member") }
        let size = Int64((try? file.status())?.size ?? 0)
        for m in members where m.offset + Int64(m.size) > size {
            problems.append(BundleWords.memberCutShort(m.name, missingBytes: m.offset + Int64(m.size) - size))
        }
        var manifest: BundleManifest?
        if let first = members.first, first.name == BundleManifest.fileName {
            do { manifest = try Self.manifest(bytes(file, first, cap: 1 << 20)) } catch let f as FieldFault {
                problems.append(BundleWords.manifestUnreadable(field: f.field, reason: f.reason))
            } catch let f as JSONFault {
                problems.append(BundleWords.manifestUnreadable(reason: f.reason))
            } catch {
                problems.append(BundleWords.manifestUnreadable(reason: "\(error)"))
            }
        } else {
            problems.append(BundleWords.noManifestFirst)
        }
        var mismatched: [String: String] = [:]
        var parts: [String] = []
        let listed = Set(manifest?.parts.map(\.name) ?? [])
        for p in manifest?.parts ?? [] {
            guard let m = members.first(where: { $0.name == p.name }) else {
                problems.append(BundleWords.listedPartMissing(p.name))
                continue
            }
            parts.append(path + "/" + m.name)
            if m.size != p.size {
                mismatched[m.name] = BundleWords.sizeDisagrees(holds: m.size, manifestSays: p.size)
            } else if let sha = try? digest(file, m), sha != p.sha256.lowercased() {
                mismatched[m.name] = BundleWords.checksumFails(sha256: sha, manifestSays: p.sha256)
            }
            if let why = mismatched[m.name] { problems.append("part \(m.name) \(why)") }
        }
        for m in members.dropFirst(manifest == nil ? 0 : 1) where !listed.contains(m.name) && isPartName(m.name) {
            if manifest != nil { problems.append(BundleWords.memberNotListed(m.name)) }
            parts.append(path + "/" + m.name)
        }
        return TraceBundle(path: path, manifest: manifest, members: members, parts: parts, problems: problems, mismatched: mismatched)
    }

    /// Whether a member not in the manifest is read as a part: a trace's name.
    static func isPartName(_ name: String) -> Bool { name.hasSuffix(".zst") || name.hasSuffix(".jsonl") }

    /// A member's bytes (at most `cap`).
    private static func bytes(_ file: OpenFile, _ m: Member, cap: Int) throws -> [UInt8] {
        guard m.size <= cap else { throw Ustar.Fault(BundleWords.manifestTooLarge(size: m.size, cap: cap)) }
        var out = [UInt8](repeating: 0, count: m.size)
        var done = 0
        while done < m.size {
            let n = try out.withUnsafeMutableBytes { try file.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[done...]), at: m.offset + Int64(done)) }
            if n == 0 { throw Ustar.Fault("cut short") }
            done += n
        }
        return out
    }

    /// SHA-256 of a member's bytes, lowercase hex.
    private static func digest(_ file: OpenFile, _ m: Member) throws -> String {
        var hasher = SHA256.Hasher()
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var done = 0
        while done < m.size {
            let want = min(buffer.count, m.size - done)
            let n = try buffer.withUnsafeMutableBytes { try file.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[0..<want]), at: m.offset + Int64(done)) }
            if n == 0 { break }
            buffer.withUnsafeBufferPointer { hasher.update(UnsafeBufferPointer(rebasing: $0[0..<n])) }
            done += n
        }
        return SHA256.hex(hasher.finish())
    }

    /// Reads `manifest.json`.
    static func manifest(_ json: [UInt8]) throws -> BundleManifest {
        try json.withUnsafeBufferPointer { bytes in
            let top = JSONFields(), nested = JSONFields()
            var c = JSONCursor(bytes)
            try top.scan(&c)
            let r = FieldReader(bytes: bytes, fields: top)
            guard try r.string("format") == BundleManifest.format else { throw FieldFault(field: "format", reason: "not \"\(BundleManifest.format)\"") }
            let version = try r.int("version")
            guard version <= BundleManifest.version else {
                throw FieldFault(field: "version", reason: BundleWords.laterManifestVersion(version, known: BundleManifest.version))
            }
            let parts = try r.objectArray("parts", scratch: nested) { p in
                BundleManifest.Part(name: try p.string("name"), size: Int(clamping: try p.int("size")), sha256: try p.string("sha256"))
            }
            return BundleManifest(session: try r.string("session"), reportIds: try r.optionalStringArray("reportIds") ?? [],
                                  parts: parts, recorderVersion: try r.optionalString("recorderVersion") ?? "?",
                                  createdAt: try r.optionalString("createdAt") ?? "?")
        }
    }
}

extension FileSystem {
    /// Whether `path` is (or links to) a regular file.
    static func status(regular path: String) -> Bool { (try? status(path))?.type == .regular }
}
