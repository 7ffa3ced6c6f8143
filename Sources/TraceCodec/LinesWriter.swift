import SystemLayer

/// Streams lines of text to a file or a descriptor, plain or as checksummed zstd frames, in bounded memory.
///
/// A compressed output is a sequence of independent frames (one per `frameBytes` of lines, 256 KiB
/// by default: small enough that the buffers stay the same size for any number of lines), so
/// `zstd -dc` and anything that reads concatenated zstd frames read it, and outputs can be merged
/// by concatenation. A file is written to a temporary sibling and renamed into place by `finish()`,
/// so a failed or interrupted run leaves no half-written output under the name.
package final class LinesWriter {
    /// The path written (nil for a descriptor).
    package let path: String?
    private let file: OpenFile?
    /// Where the bytes go when it is not a file or descriptor (an output kept in memory).
    private let sink: ((UnsafeRawBufferPointer) throws -> Void)?
    private let temporary: String?
    private let compressor: ZstdCompressor?
    private let frameBytes: Int
    private var buffer: [UInt8] = []
    private var finished = false
    /// Lines written so far.
    package private(set) var lines = 0

    /// Writes to `path` (atomically, when finished); `compress` writes zstd frames of about `frameBytes` each.
    package init(path: String, compress: Bool, frameBytes: Int = 256 << 10) throws {
        self.path = path
        let tmp = AtomicFile.temporarySibling(of: path)
        do { file = try AtomicFile.createTemporary(tmp) } catch {
            throw FileError.system(path, "cannot create", error)
        }
        temporary = tmp
        sink = nil
        compressor = compress ? try ZstdCompressor(level: 3) : nil
        self.frameBytes = max(frameBytes, 1)
        buffer.reserveCapacity(min(self.frameBytes, 4 << 20) + 4096)
    }

    /// Writes to an open descriptor (standard output: 1), which stays open.
    package init(fd: Int32, compress: Bool, frameBytes: Int = 256 << 10) throws {
        path = nil
        file = OpenFile(borrowing: FileDescriptor(rawValue: fd), name: fd == 1 ? "standard output" : "descriptor \(fd)")
        temporary = nil
        sink = nil
        compressor = compress ? try ZstdCompressor(level: 3) : nil
        self.frameBytes = max(frameBytes, 1)
    }

    /// Writes through `sink` (each chunk as it is flushed).
    package init(sink: @escaping (UnsafeRawBufferPointer) throws -> Void, compress: Bool, frameBytes: Int = 256 << 10) throws {
        path = nil
        file = nil
        temporary = nil
        self.sink = sink
        compressor = compress ? try ZstdCompressor(level: 3) : nil
        self.frameBytes = max(frameBytes, 1)
    }

    deinit {
        if !finished, let temporary {
            try? file?.close()
            AtomicFile.discard(temporary)
        }
    }

    /// Appends one line; a newline is added.
    package func write(line: some Collection<UInt8>) throws {
        buffer.append(contentsOf: line)
        buffer.append(0x0A)
        lines += 1
        if buffer.count >= frameBytes || (compressor == nil && buffer.count >= 64 << 10) { try flush() }
    }

    /// Writes what is buffered (one frame when compressing).
    package func flush() throws {
        guard !buffer.isEmpty else { return }
        if let compressor {
            let frame = try buffer.withUnsafeBytes { try compressor.frame($0) }
            try frame.withUnsafeBytes { try writeAll($0) }
        } else {
            try buffer.withUnsafeBytes { try writeAll($0) }
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Flushes, and for a file makes it durable and moves it into place.
    package func finish() throws {
        guard !finished else { return }
        try flush()
        finished = true
        guard let temporary, let path, let file else { return }
        do {
            try file.sync()
            try file.close()
        } catch {
            try? file.close()
            AtomicFile.discard(temporary)
            throw FileError.system(path, "cannot sync", error)
        }
        try AtomicFile.commit(temporary, to: path)
    }

    private func writeAll(_ p: UnsafeRawBufferPointer) throws {
        guard let file else { return try sink?(p) ?? () }
        do { try file.writeAll(p) } catch { throw FileError.system(path ?? file.path, "write failed", error) }
    }
}
