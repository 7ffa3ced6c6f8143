#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One object per thread under one key (`pthread_getspecific`): reading it takes no lock, and the
/// object is released when its thread exits (the key's destructor), so its `deinit` runs there.
///
/// Make one per purpose and keep it for the process's life (a `static let`): keys are few (the system
/// allows some hundreds), and one is never deleted.
///
/// `Value` must be a native Swift class (the destructor releases the object as `AnyObject`).
public final class ThreadLocalObject<Value: AnyObject>: @unchecked Sendable {
    /// Constant once made, so that reading it needs no exclusivity check; inlinable, so that a caller's
    /// read is one `pthread_getspecific` specialized for its type (no generic metadata looked up).
    @usableFromInline let key: pthread_key_t

    /// Creates the key.
    public init() {
        var key = pthread_key_t()
        #if canImport(Darwin)
        pthread_key_create(&key) { raw in Unmanaged<AnyObject>.fromOpaque(raw).release() }
        #else
        pthread_key_create(&key) { raw in if let raw { Unmanaged<AnyObject>.fromOpaque(raw).release() } }
        #endif
        self.key = key
    }

    /// This thread's object, nil until set on this thread.
    @inline(__always)
    public var value: Value? {
        get {
            guard let raw = pthread_getspecific(key) else { return nil }
            // The pointer is the object itself (retained by `set`), whatever static type released it.
            return Unmanaged<Value>.fromOpaque(raw).takeUnretainedValue()
        }
        set {
            let old = pthread_getspecific(key)
            pthread_setspecific(key, newValue.map { Unmanaged<Value>.passRetained($0).toOpaque() })
            if let old { Unmanaged<Value>.fromOpaque(old).release() }
        }
    }
}
