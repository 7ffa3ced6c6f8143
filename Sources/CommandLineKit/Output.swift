import SystemLayer

/// Buffered standard output (or error) with terminal-safe text helpers: a stream of the process, or
/// bytes kept in memory (a command run in a test's process).
///
/// A failed write (a full disk, a closed pipe) is kept in `failure` and later output is dropped:
/// the command ends with an error naming the stream instead of exiting 0 with output lost.
package final class Output: @unchecked Sendable {
    /// The stream written to, or nil when the bytes are kept in memory (`written`).
    package let descriptor: FileDescriptor?
    package let name: String
    private var buffer: [UInt8] = []
    /// What an output in memory holds (flushed bytes).
    private var kept: [UInt8] = []
    /// Guards `kept` and the descriptor for the writes from several threads (`writeNow`).
    private let lock = Lock()
    /// The first write that failed, if any.
    private(set) var failure: SystemError?

    package init(_ descriptor: FileDescriptor, name: String) {
        self.descriptor = descriptor
        self.name = name
        buffer.reserveCapacity(1 << 16)
    }

    /// An output kept in memory, named `name` in messages; `terminal` says whether it stands for a terminal.
    package init(inMemory name: String, terminal: Bool = false) {
        descriptor = nil
        self.name = name
        isTerminal = terminal
    }

    /// Whether the stream is a terminal (progress lines only then).
    package lazy var isTerminal: Bool = descriptor?.isTerminal ?? false

    /// Everything flushed to an output in memory (empty for a stream of the process).
    package var written: [UInt8] { lock.withLock { kept } }

    /// Writes `s` at once, past the buffer, from any thread (progress lines while threads work).
    package func writeNow(_ s: String) {
        lock.withLock {
            if let descriptor { try? descriptor.writeAll(string: s) } else { kept.append(contentsOf: s.utf8) }
        }
    }

    package func write(_ s: String) {
        buffer.append(contentsOf: s.utf8)
        if buffer.count >= 1 << 16 { flush() }
    }

    package func write(byte: UInt8) {
        buffer.append(byte)
        if buffer.count >= 1 << 16 { flush() }
    }

    /// Writes bytes; 64 KiB or more (a run of lines `cat` passes on) go to the stream after what is
    /// buffered without being copied into the buffer first.
    package func write(bytes: UnsafeBufferPointer<UInt8>) {
        if bytes.count >= 1 << 16 {
            flush()
            if failure == nil {
                guard let descriptor else { lock.withLock { kept.append(contentsOf: bytes) }; return }
                do throws(SystemError) { try descriptor.writeAll(UnsafeRawBufferPointer(bytes)) } catch { failure = error.about(name) }
            }
            return
        }
        buffer.append(contentsOf: bytes)
        if buffer.count >= 1 << 16 { flush() }
    }

    package func write(bytes: [UInt8]) {
        buffer.append(contentsOf: bytes)
        if buffer.count >= 1 << 16 { flush() }
    }

    package func line(_ s: String = "") { write(s); write("\n") }

    package func flush() {
        if failure == nil {
            if let descriptor {
                buffer.withUnsafeBytes { p in
                    do throws(SystemError) { try descriptor.writeAll(p) } catch { failure = error.about(name) }
                }
            } else {
                lock.withLock { kept.append(contentsOf: buffer) }
            }
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Throws the first write failure as an I/O failure (exit 74).
    package func throwIfFailed() throws {
        if let failure { throw IOFailure(message: failure.description) }
    }

    /// Flushes, then throws the first write failure as a command failure.
    package func finish() throws {
        flush()
        try throwIfFailed()
    }
}
