import SystemLayer
import TraceFrames

/// One part of a recorded session being written: JSON lines gathered into frames, each frame followed
/// by an index mark (the seq and `t` of its last record) in the same write, so that a part a crash left
/// open can be repaired from its frame structure alone (`PartRepair`).
///
/// A part is created whole or not at all: the start mark, the part mark, the frame holding the header
/// (and the checkpoint of a later part) and its index mark are written to a hidden temporary file,
/// which is then renamed into place; a crash before the rename leaves only that temporary, which the
/// next recorder removes. The file holds an exclusive advisory lock while open, so that a second
/// recorder in the same folder (another process) never repairs a live part.
final class PartFile {
    /// The part's path.
    let path: String
    private let file: OpenFile
    private var lines: [UInt8] = []
    /// Records appended but not yet written in a frame (lost if the process dies now).
    private(set) var bufferedRecords = 0
    /// Bytes appended but not yet written in a frame.
    var bufferedBytes: Int { lines.count }
    /// The seq the next record takes.
    private(set) var nextSeq: Int
    /// The latest `t` of the records appended (a late record does not lower it).
    private(set) var lastT: Int64
    /// Records appended after the part's first lines (its header, and its checkpoint).
    private(set) var recordsAppended = 0
    /// Bytes in the file.
    private(set) var size = 0
    private var closed = false

    /// The hidden name a part has while it is being created.
    static func temporaryName(_ fileName: String) -> String { "." + fileName + ".creating" }

    /// Creates the part `fileName` in `directory` holding `mark` (the part mark) and, in its first frame,
    /// `firstLines` (the header, and a checkpoint), whose seqs start at `firstSeq`; `t` is the last one's.
    static func create(directory: String, fileName: String, mark: TraceMark, firstLines: [[UInt8]], firstSeq: Int, t: Int64,
                       encoder: FrameEncoder, sync: Bool) throws -> PartFile {
        let path = directory + "/" + fileName
        let temporary = directory + "/" + temporaryName(fileName)
        guard !FileSystem.exists(path) else { throw RecorderFailure("\(path) already exists") }
        let file: OpenFile
        do { file = try OpenFile(temporary, .readWrite, options: [.create, .exclusive, .noFollow, .closeOnExec]) } catch {
            throw RecorderFailure("cannot create \(temporary): \(error.reason)", errno: error.errno)
        }
        do {
            _ = try? file.lock(.exclusive)
            let part = PartFile(path: path, file: file, firstSeq: firstSeq)
            var bytes = TraceMark.start.frame + mark.frame
            for line in firstLines { part.lines += line; part.lines.append(0x0A) }
            bytes += try part.lines.withUnsafeBytes { try encoder.frame($0) }
            bytes += TraceMark.frameIndex(lastSeq: Int64(firstSeq + firstLines.count - 1), lastT: t).frame
            do {
                try file.writeAll(bytes)
                if sync { try file.sync() }
                try FileSystem.rename(temporary, to: path)
            } catch { throw RecorderFailure("cannot create \(path): \(error.reason)", errno: error.errno) }
            part.lines.removeAll(keepingCapacity: true)
            part.size = bytes.count
            part.nextSeq = firstSeq + firstLines.count
            part.lastT = t
            return part
        } catch {
            try? file.close()
            FileSystem.removeIfPresent(temporary)
            throw error
        }
    }

    private init(path: String, file: OpenFile, firstSeq: Int) {
        self.path = path
        self.file = file
        nextSeq = firstSeq
        lastT = 0
        lines.reserveCapacity(64 << 10)
    }

    deinit { if !closed { try? file.close() } }

    /// Appends one encoded record (its JSON line, without the newline) with the next seq.
    func append(_ line: [UInt8], t: Int64) {
        lines += line
        lines.append(0x0A)
        bufferedRecords += 1
        nextSeq += 1
        lastT = max(lastT, t)
        recordsAppended += 1
    }

    /// Where the buffered records stand, to take back what was appended after it (`rollback(to:)`).
    struct Mark {
        fileprivate let bytes: Int, records: Int, nextSeq: Int, lastT: Int64, appended: Int
    }

    /// The buffer as it stands now.
    func mark() -> Mark { Mark(bytes: lines.count, records: bufferedRecords, nextSeq: nextSeq, lastT: lastT, appended: recordsAppended) }

    /// Takes back the records appended since `mark` (no frame may have been written since).
    func rollback(to m: Mark) {
        guard m.bytes <= lines.count, m.records <= bufferedRecords else { return }
        lines.removeSubrange(m.bytes...)
        bufferedRecords = m.records
        nextSeq = m.nextSeq
        lastT = m.lastT
        recordsAppended = m.appended
    }

    /// Writes the buffered records as one frame and its index mark, in one write. On a write error (a
    /// full disk) the partial bytes are cut off again, so the file still ends with a complete frame,
    /// and the records stay buffered.
    func flushFrame(_ encoder: FrameEncoder) throws {
        guard bufferedRecords > 0 else { return }
        var bytes = Array(try lines.withUnsafeBytes { try encoder.frame($0) })
        bytes += TraceMark.frameIndex(lastSeq: Int64(nextSeq - 1), lastT: lastT).frame
        try writeUnit(bytes)
        lines.removeAll(keepingCapacity: true)
        bufferedRecords = 0
    }

    /// Makes everything written durable (`fsync`).
    func sync() throws {
        do { try file.sync() } catch where error.errno == .invalidArgument {
            // A descriptor that cannot be synced has nothing to lose.
        } catch { throw RecorderFailure("\(path): fsync failed: \(error.reason)", errno: error.errno) }
    }

    /// Writes what is buffered, then the end mark, and closes the file.
    /// When a write fails (a locked volume, a full disk), the file stays open as it was, so that closing
    /// can be tried again.
    func close(_ encoder: FrameEncoder) throws {
        guard !closed else { return }
        try flushFrame(encoder)
        try writeUnit(TraceMark.end(lastSeq: Int64(nextSeq - 1)).frame)
        closed = true
        try? file.close()
    }

    /// Closes the file as a killed process leaves it: buffered records lost, no end mark (for tests).
    func abandon() {
        closed = true
        try? file.close()
    }

    private func writeUnit(_ bytes: [UInt8]) throws {
        do { try file.writeAll(bytes) } catch {
            let restored = (try? file.truncate(to: Int64(size))) != nil && (try? file.seek(to: Int64(size))) != nil
            throw RecorderFailure(RecorderWords.writeFailed(path: path, afterBytes: size, reason: error.reason, restored: restored),
                errno: restored ? error.errno : nil)
        }
        size += bytes.count
    }
}
