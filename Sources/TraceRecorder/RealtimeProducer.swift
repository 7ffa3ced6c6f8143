import TraceModel

extension TraceRecorder {
    /// Records from a real-time thread (an audio render or I/O callback): `record(_:)` never waits. It
    /// tries the queue's lock once; when another thread holds it, or the queue is full or at its
    /// allocated capacity, the record is dropped and counted, and the drops reach the trace as a
    /// `trace.dropped` with this producer's next record that gets through (or when it is released).
    ///
    /// Use one producer per real-time thread, from that thread only; make it (`makeRealtimeProducer()`)
    /// and release it on an ordinary thread. What an event holds is the caller's to make without
    /// allocating: enum values, numbers, string literals and strings of up to 15 UTF-8 bytes are free;
    /// longer strings and lists are not. A string over the cap is dropped, not clipped.
    public final class RealtimeProducer: @unchecked Sendable {
        private let core: RecorderCore
        private let clock: any RecorderClock
        private let maxString: Int
        private let filter: (@Sendable (Event) -> Event?)?
        private var missed = 0
        private var filtered = 0
        private var missedFirst: UInt64 = 0
        private var missedLast: UInt64 = 0

        init(core: RecorderCore, configuration: RecorderConfiguration) {
            self.core = core
            clock = configuration.clock
            maxString = configuration.records.maxStringBytes
            filter = configuration.filter
        }

        deinit {
            guard missed > 0 || filtered > 0 else { return }
            core.lock.lock()
            report()
            core.lock.unlock()
        }

        /// Hands what this producer counted on its own to the queue; call holding the lock.
        private func report() {
            if missed > 0 {
                core.drop(missed, first: missedFirst, last: missedLast)
                core.stats.droppedBusy += missed
                missed = 0
            }
            core.stats.filtered += filtered
            filtered = 0
        }

        /// Queues the event if that needs no waiting; false when it was dropped (counted) or ignored.
        @discardableResult
        public func record(_ event: Event) -> Bool {
            let nanos = clock.monotonicNanoseconds()
            var event = event
            if let filter {
                guard let kept = filter(event) else {
                    filtered += 1
                    return false
                }
                event = kept
            }
            let size = event.payload.queuedSize
            let appCall = core.writeThroughAppCalls && event.payload.isAppCall
            guard core.lock.tryLock() else {
                if missed == 0 { missedFirst = nanos }
                missed += 1
                missedLast = nanos
                return false
            }
            if missed > 0 || filtered > 0 { report() }
            let ok: Bool
            if size.longest > maxString {
                if core.accepting { core.drop(1, first: nanos, last: nanos) } else { core.stats.ignored += 1 }
                ok = false
            } else {
                ok = core.appendLocked(nanos, event.payload, size: size.bytes, clipped: event.payload.customClipped, appCall: appCall, realtime: true)
            }
            core.lock.unlock()
            return ok
        }
    }
}
