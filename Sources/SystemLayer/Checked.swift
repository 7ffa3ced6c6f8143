#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// The middle layer, as swift-system has it: a raw call's -1 becomes a typed `SystemError`, and
// the one EINTR rule of this module lives here: an interrupted call is retried, any other error
// fails with its errno.

/// Runs a call that returns -1 with `errno` on failure, retrying while a signal interrupts it.
@inline(__always)
func checked<T: FixedWidthInteger>(_ call: String, path: String? = nil, _ body: () -> T) throws(SystemError) -> T {
    while true {
        let r = body()
        if r != -1 { return r }
        let e = Errno.current
        if e != .interrupted { throw SystemError(e, call: call, path: path) }
    }
}

/// Runs a call that returns nil with `errno` on failure, retrying while a signal interrupts it.
@inline(__always)
func checked<T>(_ call: String, path: String? = nil, _ body: () -> T?) throws(SystemError) -> T {
    while true {
        if let r = body() { return r }
        let e = Errno.current
        if e != .interrupted { throw SystemError(e, call: call, path: path) }
    }
}
