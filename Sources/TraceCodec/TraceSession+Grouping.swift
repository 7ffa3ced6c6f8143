import SystemLayer
import TraceModel

/// A stable slice of the traces, `I/N` (0 ≤ I < N): a trace belongs to shard FNV-1a-64(key) mod N,
/// keyed by its session id (so every part of a session lands in one shard) or, without one, by its path.
package struct TriageShard: Sendable, Equatable, CustomStringConvertible {
    /// This shard's index, from 0.
    package var index: Int
    /// The number of shards.
    package var count: Int

    /// `I/N`.
    package var description: String { "\(index)/\(count)" }

    /// Parses `I/N`; nil unless 0 ≤ I < N.
    package init?(parsing s: String) {
        let parts = s.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let i = Int(parts[0]), let n = Int(parts[1]), n >= 1, i >= 0, i < n else { return nil }
        index = i
        count = n
    }

    /// Creates a shard.
    package init(index: Int, count: Int) {
        self.index = index
        self.count = count
    }

    /// Whether the trace with this key belongs to the shard.
    package func contains(key: String) -> Bool { Int(Self.fnv1a64(key) % UInt64(count)) == index }

    /// FNV-1a, 64 bits, over the UTF-8 bytes: the same on every machine and in every run.
    package static func fnv1a64(_ s: String) -> UInt64 { StableHash.fnv1a64(s) }
}

extension TraceSession {
    /// Whether the file is a trace rtctrace created (its start mark) that holds no record at all: a
    /// recorder part whose header never reached the disk (a crash while it was being created, by a
    /// recorder before parts were created whole). Nothing in it belongs to any session.
    package static func holdsNoRecord(_ path: String) -> Bool {
        guard let reader = try? TraceReader(path: path) else { return false }
        while let e = reader.next() {
            if case .record = e { return false }
        }
        return reader.stats.hasStartMark && reader.recordCount == 0
    }

    /// Groups `files` into traces (`TraceSessionList`): the one function that makes the sessions a set of
    /// files holds, for a fleet (triage, check) and for the one trace a command names.
    package static func group(_ files: PathList, jobs: Int, shard: TriageShard? = nil) -> TraceSessionList {
        TraceSessionList(files: files, jobs: jobs, shard: shard)
    }
}

/// The traces a set of files holds, in path order, in memory of a few dozen bytes a trace: the paths
/// in one buffer, each trace as the index of its first file, sessions on the side.
package struct TraceSessionList: Sendable {
    private let files: PathList
    private let sizes: [Int]
    /// The first file of each trace, in path order.
    private let firsts: [Int32]
    /// Every part of a trace recorded as several files (or one file with a session), by its first file.
    private let sessions: [Int32: (id: String, files: [Int32], parts: [Int])]
    /// Files whose header names a session but disagrees with the recording it would join (another layer,
    /// device model, OS or bundle id): each begins a trace of its own, and this says why, one sentence each.
    package let disagreements: [String]

    /// How many traces.
    package var count: Int { firsts.count }

    /// Trace `k` (in path order), its paths materialised.
    package subscript(k: Int) -> TraceSession {
        let first = firsts[k]
        guard let s = sessions[first] else { return TraceSession(paths: [files[Int(first)]], id: nil, size: sizes[Int(first)]) }
        return TraceSession(paths: s.files.map { files[Int($0)] }, id: s.id, size: s.files.reduce(0) { $0 + sizes[Int($1)] },
                            partNumbers: s.parts)
    }

    /// Every trace, in path order (each materialised).
    package var all: [TraceSession] { (0..<count).map { self[$0] } }

    /// Reads every file's header on `jobs` threads and groups the files into traces: the parts of
    /// one session (same `session.id` and the same start) in part order, every other file alone. A
    /// second file claiming a part already taken begins another recording of that id. A path given twice counts once. Traces are ordered
    /// by their first path (bytes), and only those in `shard` are kept.
    init(files: PathList, jobs: Int, shard: TriageShard? = nil) {
        self.files = files
        // Byte order, then duplicates dropped.
        var sorted = (0..<Int32(files.count)).sorted { files.precedes(Int($0), Int($1)) }
        var kept: [Int32] = []
        kept.reserveCapacity(sorted.count)
        for f in sorted where kept.last.map({ !files.same(Int($0), Int(f)) }) ?? true { kept.append(f) }
        sorted = []
        let unique = kept
        kept = []
        var rank = [Int32](repeating: -1, count: files.count)
        for (r, f) in unique.enumerated() { rank[Int(f)] = Int32(r) }
        var sizes = [Int](repeating: 0, count: files.count)
        var parts: [String: [(part: Int, file: Int32, starts: [Int64], identity: Identity)]] = [:]
        var firsts: [Int32] = []
        var sessions: [Int32: (id: String, files: [Int32], parts: [Int])] = [:]
        OrderedParallel.run(count: unique.count, jobs: jobs, window: max(64, jobs * 16), work: { Self.peek(files[Int(unique[$0])]) },
                            emit: { i, p in
            let f = unique[i]
            sizes[Int(f)] = p.size
            if let s = p.session { parts[s.id, default: []].append((s.part, f, p.starts, p.identity)) } else { firsts.append(f) }
        })
        self.sizes = sizes
        var disagreements: [(rank: Int32, text: String)] = []
        for (id, list) in parts {
            // One id may name several recordings (an app that configures a fixed session id): a part
            // joins the recording whose start it shares, whose part number is free and whose headers say
            // the same layer, device and app, else it begins a recording of its own (a part whose header
            // claims another app or device is another trace, whatever its session id says).
            var recordings: [(starts: [Int64], files: [Int32], parts: [Int], taken: Set<Int>, identity: Identity)] = []
            for p in list.sorted(by: { ($0.part, rank[Int($0.file)]) < ($1.part, rank[Int($1.file)]) }) {
                let joinable = recordings.indices.filter { !recordings[$0].taken.contains(p.part) && Self.sameStart(recordings[$0].starts, p.starts) }
                if let i = joinable.first(where: { recordings[$0].identity.differences(p.identity).isEmpty }) {
                    recordings[i].files.append(p.file)
                    recordings[i].parts.append(p.part)
                    recordings[i].taken.insert(p.part)
                    recordings[i].identity = recordings[i].identity.filled(from: p.identity)
                } else {
                    if let i = joinable.first {
                        let r = recordings[i]
                        disagreements.append((rank[Int(p.file)], ReadWords.notTheSameRecording(
                            files[Int(p.file)], part: p.part, session: id, as: files[Int(r.files[0])], part: r.parts[0],
                            differences: r.identity.differences(p.identity))))
                    }
                    recordings.append((p.starts, [p.file], [p.part], [p.part], p.identity))
                }
            }
            for r in recordings {
                firsts.append(r.files[0])
                sessions[r.files[0]] = (id, r.files, r.parts)
            }
        }
        if let shard { firsts.removeAll { !shard.contains(key: sessions[$0]?.id ?? files[Int($0)]) } }
        firsts.sort { rank[Int($0)] < rank[Int($1)] }
        self.firsts = firsts
        self.sessions = sessions
        self.disagreements = disagreements.sorted { $0.rank < $1.rank }.map(\.text)
    }

    /// What a header says of who recorded the trace: parts of one recording agree on all of it (a field
    /// a header leaves out agrees with anything).
    struct Identity: Sendable {
        var layer: Layer?
        var model: String?
        var os: String?
        var bundleId: String?

        /// Each field both say and say differently: its name, this one's value and the other's.
        func differences(_ other: Identity) -> [(field: String, ours: String, theirs: String)] {
            var out: [(String, String, String)] = []
            func check(_ field: String, _ a: String?, _ b: String?) {
                if let a, let b, a != b { out.append((field, terminalSafe(a), terminalSafe(b))) }
            }
            check("layer", layer?.rawValue, other.layer?.rawValue)
            check("device model", model, other.model)
            check("OS", os, other.os)
            check("bundle id", bundleId, other.bundleId)
            return out
        }

        /// This identity with the fields it leaves out taken from `other`.
        func filled(from other: Identity) -> Identity {
            Identity(layer: layer ?? other.layer, model: model ?? other.model, os: os ?? other.os, bundleId: bundleId ?? other.bundleId)
        }
    }

    /// What a file's header says about the session it belongs to.
    struct Peek: Sendable {
        var size: Int
        var session: TraceHeader.Session?
        /// When its session may have started (ms since 1970), empty when the header has no readable
        /// `startedAt`: writers put either the session's start in every part's header (the recorder) or
        /// the part's own (the session's start + the header's `t`), so both are candidates.
        var starts: [Int64] = []
        /// Who recorded it, as the header says.
        var identity = Identity()
    }

    /// How far apart two starts of one session may be (`startedAt` may be written to the second).
    static let startTolerance: Int64 = 1000

    /// Whether a part with start candidates `b` belongs with a recording that began at one of `a`;
    /// an unknown start belongs anywhere.
    static func sameStart(_ a: [Int64], _ b: [Int64]) -> Bool {
        a.isEmpty || b.isEmpty || a.contains { x in b.contains { y in abs(x - y) <= startTolerance } }
    }

    /// Reads as far as the first record (a few events at most) and returns its session, if it is a header with one.
    static func peek(_ path: String) -> Peek {
        let size: Int
        if let member = TraceBundle.memberSize(path) {
            size = member
        } else {
            guard let st = try? FileSystem.status(path), st.type == .regular, TriageInputs.refusal(path) == nil else { return Peek(size: 0, session: nil) }
            size = Int(st.size)
        }
        guard let reader = try? TraceReader(path: path) else { return Peek(size: size, session: nil) }
        var events = 0
        while events < 64, let e = reader.next() {
            events += 1
            switch e {
            case .record(let r):
                if case .header(let h) = r.body {
                    let at = h.startedAt.flatMap(UTCTime.milliseconds)
                    return Peek(size: size, session: h.session, starts: at.map { $0 == $0 &- r.t ? [$0] : [$0, $0 &- r.t] } ?? [],
                                identity: Identity(layer: h.layer, model: h.device.model, os: h.device.os, bundleId: h.app.bundleId))
                }
                return Peek(size: size, session: nil)
            case .problem(let p) where p.kind == .notATrace:
                return Peek(size: size, session: nil)
            case .problem:
                continue
            }
        }
        return Peek(size: size, session: nil)
    }
}
