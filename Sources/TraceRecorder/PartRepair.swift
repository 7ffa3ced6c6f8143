import SystemLayer
import TraceFrames

/// Repairs a part that a process which died left open, from its frame structure alone: no decoder is
/// needed on the device. The part's own marks say what it holds: the part mark (the session's start),
/// and after each data frame an index mark (the seq and `t` of its last record). What follows the last
/// whole frame-and-index pair (a write a crash cut short) is cut off, and the end mark is written.
enum PartRepair {
    /// What a part left open holds, and what was done to it.
    struct Report: Equatable {
        enum Outcome: Equatable {
            /// Cut back to its last whole frame (when needed) and closed with the end mark.
            case repaired
            /// It was closed already.
            case alreadyClosed
            /// It held no record (no whole first frame): removed.
            case removed
            /// Written by a recorder before the index marks: cut back to its last whole frame, left
            /// without an end mark (its last seq is unknown here), and never continued.
            case legacy
        }
        var outcome: Outcome
        /// The part mark: when the session began, the part number, whether a restart began it.
        var sessionStartMs: Int64?
        var part: Int?
        /// The last record kept: its seq and `t`.
        var lastSeq: Int?
        var lastT: Int64?
        /// Bytes cut off the end.
        var cutBytes = 0
    }

    /// Why a part cannot be repaired now.
    enum Refusal: Error, CustomStringConvertible {
        /// Another live recorder holds its lock.
        case inUse
        /// It is not a part this recorder wrote (no start mark), or it cannot be read.
        case notAPart(String)

        var description: String {
            switch self {
            case .inUse: RecorderWords.partInUse
            case .notAPart(let why): why
            }
        }
    }

    /// The largest part read whole for its repair (a part is a few MiB at most).
    static let maxBytes = 256 << 20

    /// Repairs the part at `path` in place.
    static func repair(path: String) throws -> Report {
        let file: OpenFile
        do { file = try OpenFile(path, .readWrite, options: [.closeOnExec, .noFollow]) } catch {
            throw Refusal.notAPart(RecorderWords.partCannotOpen(reason: error.reason))
        }
        defer { try? file.close() }
        guard (try? file.lock(.exclusive)) == true else { throw Refusal.inUse }
        let bytes: [UInt8]
        do { bytes = try file.readAll(limit: maxBytes) } catch { throw Refusal.notAPart(RecorderWords.partCannotRead(reason: error.reason)) }
        if bytes.isEmpty {
            // A part whose creation the system had not written back when it died (no fsync): nothing in it.
            FileSystem.removeIfPresent(path)
            return Report(outcome: .removed)
        }
        let scan = bytes.withUnsafeBytes { scanParts($0) }
        guard scan.startMark else { throw Refusal.notAPart(RecorderWords.partWithoutStartMark) }
        var report = Report(outcome: .repaired, sessionStartMs: scan.sessionStartMs, part: scan.part,
                            lastSeq: scan.lastSeq, lastT: scan.lastT, cutBytes: bytes.count - scan.validEnd)
        if scan.endMarked && scan.validEnd == bytes.count {
            report.outcome = .alreadyClosed
            return report
        }
        if scan.partMark ? scan.lastSeq == nil : scan.dataFrames == 0 {
            // No record in it (the header never made it): a part nothing can read, removed.
            FileSystem.removeIfPresent(path)
            report.outcome = .removed
            return report
        }
        do {
            if scan.validEnd < bytes.count { try file.truncate(to: Int64(scan.validEnd)) }
            if scan.partMark, let last = scan.lastSeq, !scan.endMarked {
                try file.seek(to: Int64(scan.validEnd))
                try file.writeAll(TraceMark.end(lastSeq: Int64(last)).frame)
            }
            try file.sync()
        } catch { throw Refusal.notAPart(RecorderWords.partCannotRepair(reason: error.reason)) }
        if !scan.partMark { report.outcome = .legacy }
        return report
    }

    struct Scan {
        var startMark = false
        var partMark = false
        var sessionStartMs: Int64?
        var part: Int?
        var lastSeq: Int?
        var lastT: Int64?
        /// The end of the last whole unit: a mark, a frame and its index mark (or, without a part mark, a frame).
        var validEnd = 0
        var endMarked = false
        /// Whole data frames seen.
        var dataFrames = 0
    }

    /// Walks the frames of a part. In a part with a part mark a data frame counts once its index mark
    /// follows (a frame without one is a write cut short); bytes where no frame starts are skipped to the
    /// next frame magic, so damage in the middle costs only itself.
    static func scanParts(_ p: UnsafeRawBufferPointer) -> Scan {
        var scan = Scan()
        var pos = 0
        var dataEnd: Int?
        while pos < p.count {
            switch FrameStructure.extent(of: p, at: pos) {
            case .data(let length, _):
                dataEnd = pos + length
                scan.dataFrames += 1
                if !scan.partMark { scan.validEnd = pos + length }
                scan.endMarked = false
                pos += length
            case let .skippable(length, magic, payload):
                let mark = payload.count <= 64 ? TraceMark.parse(magic: magic, payload: Array(p[payload])[...]) : nil
                switch mark {
                case .start?:
                    if pos == 0 { scan.startMark = true }
                case let .part(start, part, _)?:
                    scan.partMark = true
                    scan.sessionStartMs = start
                    scan.part = Int(part)
                case let .frameIndex(lastSeq, lastT)?:
                    if dataEnd == pos {
                        scan.lastSeq = Int(lastSeq)
                        scan.lastT = lastT
                    }
                case .end?, nil:
                    break
                }
                if case .end? = mark { scan.endMarked = true } else { scan.endMarked = false }
                dataEnd = nil
                scan.validEnd = pos + length
                pos += length
            case .truncated:
                return scan
            case .invalid:
                guard let next = nextMagic(p, after: pos) else { return scan }
                dataEnd = nil
                scan.endMarked = false
                pos = next
            }
        }
        return scan
    }

    /// The offset of the next frame magic (data or skippable) after `pos`.
    static func nextMagic(_ p: UnsafeRawBufferPointer, after pos: Int) -> Int? {
        var i = pos + 1
        while i + 4 <= p.count {
            let m = UInt32(p[i]) | UInt32(p[i + 1]) << 8 | UInt32(p[i + 2]) << 16 | UInt32(p[i + 3]) << 24
            if m == ZstdMagic.frame || ZstdMagic.isSkippable(m) { return i }
            i += 1
        }
        return nil
    }
}
