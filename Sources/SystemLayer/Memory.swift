#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The C library's vectorised byte search and comparison, for the decoder's hot paths.
///
/// Inlinable, so a caller in another module compiles to the bare `memchr`/`memcmp` call.
public enum Memory {
    /// The address of the first `byte` in the `count` bytes at `start`, or nil.
    @inlinable @inline(__always)
    public static func firstAddress(of byte: UInt8, in start: UnsafeRawPointer, count: Int) -> UnsafeRawPointer? {
        UnsafeRawPointer(memchr(start, Int32(byte), count))
    }

    /// Whether the `count` bytes at `a` and at `b` are equal.
    @inlinable @inline(__always)
    public static func equal(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, count: Int) -> Bool {
        memcmp(a, b, count) == 0
    }
}

extension Memory {
    /// Makes every block of `bytes` or more come straight from the system's pages and go back to it when
    /// freed. glibc otherwise raises that threshold as large blocks are freed (up to 32 MiB), and the
    /// blocks below it stay with the thread's arena after they are freed: a reader's buffers, grown and
    /// freed on each of N threads, then stayed resident N times. Elsewhere (musl, Darwin) large blocks
    /// are returned already: nothing to do.
    public static func returnLargeBlocksToTheSystem(from bytes: Int = 1 << 20) {
        mallocOption(-3, bytes)  // M_MMAP_THRESHOLD
    }

    /// glibc's `mallopt(option, value)`; nothing elsewhere.
    private static func mallocOption(_ option: Int32, _ value: Int) {
        #if canImport(Glibc)
        // mallopt is in malloc.h, which the Glibc module does not export: looked up by name.
        typealias MallOpt = @convention(c) (Int32, Int32) -> Int32
        if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") {
            _ = unsafeBitCast(symbol, to: MallOpt.self)(option, Int32(clamping: value))
        }
        #endif
    }

    /// Lets each arena keep up to `bytes` of freed memory at its top instead of handing it back to the
    /// system at once (glibc's default once a threshold is set by `returnLargeBlocksToTheSystem`: 128 KiB).
    /// A run that replays trace after trace frees each trace's buffers (those under the large-block
    /// threshold) and allocates them again for the next: handed back, every page of them faults in again,
    /// a tenth of a fleet's triage. Kept, it holds at most `bytes` per arena beyond what is in use.
    /// Elsewhere (musl, Darwin) nothing to do.
    public static func keepFreedBlocks(upTo bytes: Int = 8 << 20) {
        mallocOption(-1, bytes)  // M_TRIM_THRESHOLD
    }
}
