#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A thread of its own running one closure, joined once: the reader's decompression stage runs on one.
/// A pthread everywhere (no Foundation), started at once by `init`.
public final class JoinableThread: @unchecked Sendable {
    #if canImport(Darwin)
    private var handle: pthread_t?
    #else
    private var handle = pthread_t()
    #endif
    private var joined = false

    /// What the new thread runs, kept alive until it has run.
    private final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    /// Starts a thread running `body`; nil when the system cannot start one (the caller then runs the
    /// work itself).
    public init?(_ body: @escaping @Sendable () -> Void) {
        let context = Unmanaged.passRetained(Body(body)).toOpaque()
        #if canImport(Darwin)
        let rc = pthread_create(&handle, nil, { raw in
            let body = Unmanaged<Body>.fromOpaque(raw).takeRetainedValue()
            body.run()
            return nil
        }, context)
        #else
        let rc = pthread_create(&handle, nil, { raw in
            let body = Unmanaged<Body>.fromOpaque(raw!).takeRetainedValue()
            body.run()
            return nil
        }, context)
        #endif
        if rc != 0 {
            Unmanaged<Body>.fromOpaque(context).release()
            return nil
        }
    }

    /// Waits for the thread to finish (once; later calls return at once).
    public func join() {
        guard !joined else { return }
        joined = true
        #if canImport(Darwin)
        if let handle { pthread_join(handle, nil) }
        #else
        pthread_join(handle, nil)
        #endif
    }

    deinit { join() }
}

/// The calling thread.
public enum CurrentThread {
    /// A number that tells the calling thread from every other thread running now.
    public static var id: UInt {
        #if canImport(Glibc)
        pthread_self()
        #else
        unsafeBitCast(pthread_self(), to: UInt.self)
        #endif
    }
}

extension CurrentProcess {
    /// The processors this process may run on (its affinity mask: `taskset -c 0` gives 1), at least 1;
    /// where the mask cannot be read, the processors online.
    public static var usableProcessorCount: Int {
        #if os(Linux)
        // sched_getaffinity is a GNU extension the Glibc module does not export: looked up by name.
        typealias GetAffinity = @convention(c) (pid_t, Int, UnsafeMutableRawPointer) -> Int32
        if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "sched_getaffinity") {
            let getAffinity = unsafeBitCast(symbol, to: GetAffinity.self)
            var mask = (UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0),
                        UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0))
            let count = withUnsafeMutableBytes(of: &mask) { raw -> Int in
                guard getAffinity(0, raw.count, raw.baseAddress!) == 0 else { return 0 }
                return raw.reduce(0) { $0 + $1.nonzeroBitCount }
            }
            if count > 0 { return count }
        }
        #endif
        return activeProcessorCount
    }
}
