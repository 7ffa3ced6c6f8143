import SystemLayer

/// Buffered standard output (and error) with terminal-safe text helpers.
///
/// A failed write (a full disk, a closed pipe) is kept in `failure` and later output is dropped:
/// the command ends with an error naming the stream instead of exiting 0 with output lost.
public final class Output: @unchecked Sendable {
    public static let stdout = Output(.standardOutput, name: "standard output")
    public static let stderr = Output(.standardError, name: "standard error")

    public let descriptor: FileDescriptor
    public let name: String
    private var buffer: [UInt8] = []
    /// The first write that failed, if any.
    private(set) var failure: SystemError?

    public init(_ descriptor: FileDescriptor, name: String) {
        self.descriptor = descriptor
        self.name = name
        buffer.reserveCapacity(1 << 16)
    }

    /// Whether the stream is a terminal (progress lines only then).
    public lazy var isTerminal: Bool = descriptor.isTerminal

    /// Whether to colour this stream: only a terminal, and never when `NO_COLOR` is set to
    /// anything but the empty string (no-color.org).
    public lazy var usesColour: Bool = isTerminal && (CurrentProcess.environment("NO_COLOR") ?? "").isEmpty

    public func write(_ s: String) {
        buffer.append(contentsOf: s.utf8)
        if buffer.count >= 1 << 16 { flush() }
    }

    public func write(byte: UInt8) {
        buffer.append(byte)
        if buffer.count >= 1 << 16 { flush() }
    }

    /// Writes bytes; 64 KiB or more (a run of lines `cat` passes on) go to the stream after what is
    /// buffered without being copied into the buffer first.
    public func write(bytes: UnsafeBufferPointer<UInt8>) {
        if bytes.count >= 1 << 16 {
            flush()
            if failure == nil {
                do throws(SystemError) { try descriptor.writeAll(UnsafeRawBufferPointer(bytes)) } catch { failure = error.about(name) }
            }
            return
        }
        buffer.append(contentsOf: bytes)
        if buffer.count >= 1 << 16 { flush() }
    }

    public func write(bytes: [UInt8]) {
        buffer.append(contentsOf: bytes)
        if buffer.count >= 1 << 16 { flush() }
    }

    public func line(_ s: String = "") { write(s); write("\n") }

    public func flush() {
        if failure == nil {
            buffer.withUnsafeBytes { p in
                do throws(SystemError) { try descriptor.writeAll(p) } catch { failure = error.about(name) }
            }
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Throws the first write failure as an I/O failure (exit 74).
    public func throwIfFailed() throws {
        if let failure { throw IOFailure(message: failure.description) }
    }

    /// Flushes, then throws the first write failure as a command failure.
    public func finish() throws {
        flush()
        try throwIfFailed()
    }
}
