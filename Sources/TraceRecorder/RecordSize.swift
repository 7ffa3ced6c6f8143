import TraceModel

/// What an event costs while it waits in the queue, and the cut of strings over the cap: both done on
/// the caller's path, so both are cheap (native strings know their UTF-8 length; nothing is allocated
/// unless a string is over the cap).
enum RecordClipping {
    /// `s` cut to at most `limit` UTF-8 bytes (at a character boundary) followed by
    /// `…[clipped from N bytes]`; nil when it is not longer than that (`TextCap.clip(bytes:)`).
    static func clip(_ s: String, _ limit: Int) -> String? { TextCap.clip(bytes: s, limit) }
}

extension RecordBody {
    /// What a record costs while it waits in the queue: its inline size plus the heap storage of its
    /// strings (Swift keeps strings of up to 15 UTF-8 bytes inline) and of the lists that hold them; and
    /// its longest string. It walks the string fields the personal-field map names.
    var queuedSize: (bytes: Int, longest: Int) {
        var bytes = MemoryLayout<RecordBody>.stride + 8, longest = 0
        forEachString { value, _ in
            let n = value.utf8.count
            bytes += n > 15 ? n + 48 : 16
            if n > longest { longest = n }
        }
        return (bytes, longest)
    }

    /// The queue's estimate alone.
    var queuedBytes: Int { queuedSize.bytes }
}

extension TraceRecorder.Event.Payload {
    /// The queue's estimate of this event, and its longest string.
    var queuedSize: (bytes: Int, longest: Int) {
        switch self {
        case .record(let b): return b.queuedSize
        case .log(let level, let message):
            var bytes = MemoryLayout<RecordBody>.stride + 8 + (level.utf8.count > 15 ? level.utf8.count + 48 : 16)
            var longest = level.utf8.count
            for p in message.pieces {
                let n = p.string.utf8.count
                bytes += (n > 15 ? n + 48 : 16) + 16
                longest = max(longest, n)
            }
            return (bytes, longest)
        case .custom(let c):
            let s = c.stringBytes
            return (MemoryLayout<RecordBody>.stride + 8 + s.total, s.longest)
        }
    }

    /// What the caller's path needs of the event, in one look: the queue's estimate, its longest string,
    /// whether it is an app call (written through when the policy says so) and whether it is a custom
    /// event that was cut.
    @inline(__always)
    var callerLook: (bytes: Int, longest: Int, appCall: Bool, customClipped: Bool) {
        switch self {
        case .record(let b):
            let size = b.queuedSize
            return (size.bytes, size.longest, b.kind?.isAppCall ?? false, false)
        case .log, .custom:
            let size = queuedSize
            return (size.bytes, size.longest, false, customClipped)
        }
    }

    /// The event with every string over `limit` bytes clipped; nil when none is.
    func clipped(to limit: Int) -> Self? {
        switch self {
        case .record(let b): return b.clipped(to: limit).map { .record($0) }
        case .log(let level, let message):
            let l = RecordClipping.clip(level, limit), m = message.clipped(to: limit)
            guard l != nil || m != nil else { return nil }
            return .log(level: l ?? level, message: m ?? message)
        case .custom(let c): return c.clipped(to: limit).map { .custom($0) }
        }
    }

    /// Whether the writer writes this event through at once (an app call, when the policy says so).
    @inline(__always)
    var isAppCall: Bool {
        guard case .record(let b) = self, let kind = b.kind else { return false }
        return kind.isAppCall
    }

    /// Whether this is a custom event whose names or values had to be cut or left out.
    var customClipped: Bool {
        if case .custom(let c) = self { return c.clipped }
        return false
    }
}
