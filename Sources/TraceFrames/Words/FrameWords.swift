/// The frame layer's own sentences: why a compressor failed or refused its output, why an archive header
/// cannot be read.
package enum FrameWords {
    /// The output buffer given to the stored-frame compressor cannot hold the frame.
    package static let outputBufferTooSmall = "output buffer too small"

    /// The zstd library could not allocate a compression context.
    package static let noCompressionContext = "out of memory creating a compression context"

    /// A compressor reported a frame size outside its output buffer.
    package static func impossibleFrameSize(returned: Int, bufferBytes: Int) -> String {
        "the compressor returned \(returned) bytes for a \(bufferBytes)-byte buffer"
    }

    /// A compressor's output is not exactly one whole zstd frame (`extent` is what it holds).
    package static func notOneFrame(found extent: FrameStructure.Extent) -> String {
        "the compressor's output is not one complete zstd frame (\(extent))"
    }

    /// A compressor's frame lacks the content checksum the reader verifies.
    package static let noContentChecksum = "the compressor's frame has no content checksum (set ZSTD_c_checksumFlag)"

    /// A tar header cut short by the archive's end.
    package static func headerCut(blockBytes: Int) -> String { "a header shorter than \(blockBytes) bytes: the archive is cut" }

    /// A tar header that is not ustar.
    package static let noUstarMagic = "a header without the ustar magic"

    /// A tar header whose checksum field disagrees with its bytes.
    package static let headerChecksumMismatch = "a header whose checksum does not match"

    /// A tar header whose size field is not octal.
    package static let headerSizeNotOctal = "a header whose size is not an octal number"
}
