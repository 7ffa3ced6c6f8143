import SystemLayer
import TraceModel

extension TraceRecorder {
    /// Records from a real-time thread (an audio render or I/O callback): `record(_:)` never waits and
    /// never allocates for the queue. It appends to a buffer of its own whose storage was reserved when
    /// it was made; when that is full (or its share of the queue's caps is), the record is dropped and
    /// counted, and the drops reach the trace as a `trace.dropped`.
    ///
    /// Use one producer per real-time thread, from that thread only; make it (`makeRealtimeProducer()`)
    /// and release it on an ordinary thread. What an event holds is the caller's to make without
    /// allocating: enum values, numbers, string literals and strings of up to 15 UTF-8 bytes are free;
    /// longer strings and lists are not. A string over the cap is dropped, not clipped.
    public final class RealtimeProducer: @unchecked Sendable {
        private let core: RecorderCore
        let buffer: ProducerBuffer
        private let clock: any RecorderClock
        private let maxString: Int
        private let filter: (@Sendable (Event) -> Event?)?

        init(core: RecorderCore, configuration: RecorderConfiguration) {
            self.core = core
            buffer = core.lock.withLock { core.registerLocked(realtime: true) }
            clock = configuration.clock
            maxString = configuration.records.maxStringBytes
            filter = configuration.filter
        }

        deinit {
            buffer.settle()
            buffer.retire()
        }

        /// Queues the event if that needs no waiting; false when it was dropped (counted) or ignored.
        @discardableResult
        public func record(_ event: consuming Event) -> Bool {
            let nanos: UInt64
            switch core.stamps {
            case .counter: nanos = TickCounter.now() | StampSource.counterMark
            case .monotonic: nanos = SystemLayer.Clock.monotonicNanoseconds()
            case .configured: nanos = clock.monotonicNanoseconds()
            }
            if let filter {
                guard let kept = filter(event) else {
                    buffer.count { $0.counts.filtered += 1 }
                    return false
                }
                event = kept
            }
            // Looked into once (each use of the payload as a whole copies it).
            let look = buffer.look(event)
            if look.longest > maxString {
                buffer.count { s in
                    if s.accept == .accepting { s.drop(1, first: nanos, last: nanos) } else { s.counts.ignored += 1 }
                }
                return false
            }
            let offer = Offer(nanos: nanos, size: look.bytes, clipped: look.customClipped, appCall: core.writeThroughAppCalls && look.appCall)
            let result = buffer.append(offer, (consume event).payload)
            if result.wake { core.wakeWriter() }
            return result.queued
        }
    }
}
