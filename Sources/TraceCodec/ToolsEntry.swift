import TraceModel

// The Tools SPI of TraceCodec (docs/architecture.md, "The Tools SPI"): what fuzz/ and benchmarks/, packages
// of their own that cannot see this package's `package` declarations, call to read, decode and write
// traces. Nothing else uses it. Each call forwards to the real reader, decoder or writer, so a fuzz input
// or a measured phase runs the code the product runs.

/// The reader's limits for a tool (`ReaderLimits`): windows, lines and the bytes held per frame.
@_spi(Tools) public struct ToolsReaderLimits: Sendable {
    /// The limits the reader applies.
    package let limits: ReaderLimits

    /// Limits as given: the largest zstd window (log 2), the longest line and the bytes a frame's lines may hold.
    @_spi(Tools) public init(maxWindowLog: Int32, maxLineBytes: Int, holdBytes: Int) {
        limits = ReaderLimits(maxWindowLog: maxWindowLog, maxLineBytes: maxLineBytes, holdBytes: holdBytes)
    }

    /// The limits every command reads with.
    @_spi(Tools) public static let standard = ToolsReaderLimits(ReaderLimits.standard)

    init(_ limits: ReaderLimits) { self.limits = limits }
}

/// A trace read record by record for a tool: a `TraceReader`, each call forwarded to it.
@_spi(Tools) public final class ToolsTraceReader {
    /// What `next()` yields: a decoded record, or the description of a problem the reader recovered from.
    @_spi(Tools) public enum Event {
        /// A decoded record.
        case record(Record)
        /// A problem (`TraceProblem.description`); reading continues after it.
        case problem(String)
    }

    let reader: TraceReader

    /// Opens the trace at `path` (`-` reads standard input).
    @_spi(Tools) public init(path: String, limits: ToolsReaderLimits = .standard) throws {
        reader = try TraceReader(path: path, limits: limits.limits)
    }

    /// The next record or problem (`TraceReader.next()`); nil at the end of the trace.
    @_spi(Tools) public func next() -> Event? {
        switch reader.next() {
        case .record(let r)?: .record(r)
        case .problem(let p)?: .problem(p.description)
        case nil: nil
        }
    }

    /// Records decoded so far.
    @_spi(Tools) public var recordCount: Int { reader.recordCount }

    /// The raw bytes of the line the last record came from (`TraceReader.withCurrentLine`).
    @_spi(Tools) public func withCurrentLine<T>(_ body: (UnsafeBufferPointer<UInt8>) throws -> T) rethrows -> T {
        try reader.withCurrentLine(body)
    }

    /// Streams every record of the rest of the trace to `record` (`TraceReader.forEach(record:problem:)`);
    /// returns the number of problems met.
    @_spi(Tools) public func forEach(record: (Record) throws -> Void) rethrows -> Int {
        var problems = 0
        try reader.forEach(record: record, problem: { _ in problems += 1 })
        return problems
    }

    /// Every line as the container gives it, none of them decoded (`TraceReader.forEachUndecodedLine`: the
    /// read path up to the decoder); returns the number of problems met.
    @_spi(Tools) public func forEachUndecodedLine(_ body: (UnsafeBufferPointer<UInt8>) -> Void) -> Int {
        reader.forEachUndecodedLine(body)
    }
}

/// The record decoder for a tool: a `RecordDecoder`, each call forwarded to it.
@_spi(Tools) public struct ToolsRecordDecoder {
    let decoder: RecordDecoder

    /// A decoder with its single pass for canonical lines (`fastPath`), or the general path alone.
    @_spi(Tools) public init(fastPath: Bool = true) { decoder = RecordDecoder(fastPath: fastPath) }

    /// Decodes one line (without its newline); throws a `RecordDecodeError` naming the line and field.
    @_spi(Tools) public func decode(_ line: UnsafeBufferPointer<UInt8>, lineNumber: Int) throws -> Record {
        try decoder.decode(line, lineNumber: lineNumber)
    }

    /// Decodes one line held in an array.
    @_spi(Tools) public func decode(_ line: [UInt8]) throws -> Record { try decoder.decode(line) }
}

/// One kernel of the structural check `cat` makes of a line it passes through (`LineStructure.Kernel`).
@_spi(Tools) public struct ToolsLineKernel {
    let kernel: LineStructure.Kernel

    /// The kernel's name (`reference`, `portable`, `sse2`, `avx2`).
    @_spi(Tools) public var name: String { kernel.rawValue }

    /// The kernel `cat` uses on this machine.
    @_spi(Tools) public static var standard: ToolsLineKernel { ToolsLineKernel(kernel: LineStructure.standard) }

    /// Every kernel this machine can run, in the order they are declared.
    @_spi(Tools) public static var runnable: [ToolsLineKernel] {
        LineStructure.Kernel.allCases.filter(LineStructure.runs).map { ToolsLineKernel(kernel: $0) }
    }

    /// Whether `line` from `start` closes the object it is inside, checked with this kernel
    /// (`LineStructure.closesObject(_:from:kernel:)`); nil where the kernel does not run on this CPU.
    @_spi(Tools) public func closesObject(_ line: UnsafeBufferPointer<UInt8>, from start: Int) -> Bool? {
        LineStructure.closesObject(line, from: start, kernel: kernel)
    }
}

/// The writer's options for a tool (`TraceWriter.Options`): frame size and compression level.
@_spi(Tools) public struct ToolsWriterOptions {
    var options = TraceWriter.Options()

    /// The writer's defaults.
    @_spi(Tools) public init() {}

    /// Records per frame at most.
    @_spi(Tools) public var frameRecords: Int {
        get { options.frameRecords }
        set { options.frameRecords = newValue }
    }

    /// Uncompressed bytes per frame at most.
    @_spi(Tools) public var frameBytes: Int {
        get { options.frameBytes }
        set { options.frameBytes = newValue }
    }

    /// The zstd level (nil: the writer's default).
    @_spi(Tools) public var level: Int32? {
        get { options.level }
        set { options.level = newValue }
    }
}

/// A trace written by a tool: a `TraceWriter`, each call forwarded to it.
@_spi(Tools) public final class ToolsTraceWriter {
    let writer: TraceWriter

    /// Creates the trace at `path` (or continues the one there, as `TraceWriter` does).
    @_spi(Tools) public init(path: String, options: ToolsWriterOptions = ToolsWriterOptions()) throws {
        writer = try TraceWriter(path: path, options: options.options)
    }

    /// Appends a record (`TraceWriter.append`).
    @_spi(Tools) public func append(_ record: Record) throws { try writer.append(record) }

    /// Ends the current frame (`TraceWriter.flush`).
    @_spi(Tools) public func flush() throws { try writer.flush() }

    /// Ends the last frame and closes the file (`TraceWriter.close`).
    @_spi(Tools) public func close() throws { try writer.close() }

    /// The file's size in bytes so far.
    @_spi(Tools) public var fileSize: Int { writer.fileSize }
}
