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
