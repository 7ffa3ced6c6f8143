/// Makes one complete zstd frame of a buffer of JSON lines: what a trace writer needs of a compressor.
///
/// Three implementations: `SystemZstdCompressor` (libzstd, where the platform has one: Linux, macOS
/// with Homebrew), one an SDK that links its own zstd passes in (docs/recorder.md has the ten lines),
/// and `StoredFrameCompressor`, the project's own encoder, which writes valid frames of stored (raw)
/// blocks: uncompressed, readable by every zstd reader. A frame must carry the content checksum.
public protocol TraceCompressor: AnyObject {
    /// The most bytes a frame of `count` input bytes can take (`ZSTD_compressBound`).
    func maxFrameSize(forInput count: Int) -> Int
    /// Writes `input` as one complete zstd frame, with its content checksum, into `output` (at least
    /// `maxFrameSize(forInput:)` bytes); returns the frame's length.
    func compressFrame(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) throws -> Int
}

/// A compressor that failed, or made something that is not one complete zstd frame.
public struct CompressionError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What went wrong, e.g. libzstd's error name.
    public var message: String
    /// Creates an error.
    public init(_ message: String) { self.message = message }
    /// The message.
    public var description: String { message }
}

/// A compressor with its output buffer: frames of a buffer of lines, checked to be one whole frame.
///
/// A compressor that fails (throws, or returns what is not one complete, checksummed zstd frame) is
/// replaced by the stored-block encoder from then on: the frame is still written, and `failure` says why.
public final class FrameEncoder {
    private var compressor: any TraceCompressor
    private var out: [UInt8] = []
    /// Whether the frames are stored, not compressed (the project's own encoder).
    public private(set) var stores: Bool
    /// Why the compressor was replaced by the stored-block encoder, once it was.
    public private(set) var failure: CompressionError?

    /// An encoder over `compressor`.
    public init(_ compressor: any TraceCompressor) {
        self.compressor = compressor
        stores = compressor is StoredFrameCompressor
    }

    /// One frame holding `input`, valid until the next call.
    public func frame(_ input: UnsafeRawBufferPointer) throws -> ArraySlice<UInt8> {
        do {
            return try checkedFrame(input)
        } catch {
            guard !stores else { throw error }
            failure = error as? CompressionError ?? CompressionError("\(error)")
            compressor = StoredFrameCompressor()
            stores = true
            return try checkedFrame(input)
        }
    }

    private func checkedFrame(_ input: UnsafeRawBufferPointer) throws -> ArraySlice<UInt8> {
        let bound = max(compressor.maxFrameSize(forInput: input.count), 32)
        if out.count < bound { out = [UInt8](repeating: 0, count: bound) }
        let n = try out.withUnsafeMutableBytes { try compressor.compressFrame(input, into: $0) }
        guard n > 0, n <= out.count else { throw CompressionError(FrameWords.impossibleFrameSize(returned: n, bufferBytes: out.count)) }
        let whole = out.withUnsafeBytes { FrameStructure.extent(of: UnsafeRawBufferPointer(rebasing: $0[0..<n]), at: 0) }
        guard case .data(let length, let checksummed) = whole, length == n else {
            throw CompressionError(FrameWords.notOneFrame(found: whole))
        }
        guard checksummed else { throw CompressionError(FrameWords.noContentChecksum) }
        return out[0..<n]
    }
}

/// The platform's zstd, where this build links one.
public enum SystemCompression {
    /// Whether this build links libzstd (the `CZstd` system library: Linux, macOS).
    public static var isAvailable: Bool {
        #if canImport(CZstd)
        true
        #else
        false
        #endif
    }

    /// libzstd's compressor at the tuned setting; nil where this build has no libzstd.
    public static func make() throws -> (any TraceCompressor)? {
        #if canImport(CZstd)
        try SystemZstdCompressor()
        #else
        nil
        #endif
    }
}
