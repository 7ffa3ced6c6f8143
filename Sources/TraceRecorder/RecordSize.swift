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
        let w = queuedWalk
        return (w.bytes, w.longest)
    }

    /// The queue's estimate alone.
    var queuedBytes: Int { queuedSize.bytes }

    /// What a record whose type holds no string field costs in the queue: its inline size alone.
    static let stringFreeBytes = MemoryLayout<RecordBody>.stride + 8

    /// `queuedSize`, and whether the record's type holds no string field at all (the personal-field
    /// map's answer, which a producer keeps per kind).
    @inline(__always)
    var queuedWalk: (bytes: Int, longest: Int, stringFree: Bool) {
        var bytes = Self.stringFreeBytes, longest = 0
        let holds = forEachString { value, _ in
            let n = value.utf8.count
            bytes += n > 15 ? n + 48 : 16
            if n > longest { longest = n }
        }
        return (bytes, longest, !holds)
    }
}

/// What a producer learnt of the record kinds it recorded, one bit per kind (`RecordKind.bit`): which
/// hold no string field (the personal-field map's answer, `RecordBody.forEachString`), and which of those
/// are app calls.
struct KnownKinds {
    var stringFree: UInt64 = 0
    var appCall: UInt64 = 0
}

extension RecordKind {
    /// The kind's bit in a set of kinds held in one word: its case's index (a case-only enum is stored
    /// as its index in one byte; `KnownKindsTests` holds every kind to a bit of its own).
    @inline(__always)
    var bit: UInt64 { 1 &<< UInt64(unsafeBitCast(self, to: UInt8.self)) }
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
    /// event that was cut. `kind` is the record's (`Event.kind`); `known` holds what a producer learnt of
    /// the kinds it recorded: a record of a kind the personal-field map said holds no string field is
    /// not walked (its estimate is its inline size), and whether it is an app call is read from the
    /// same word.
    @inline(__always)
    func callerLook(kind: RecordKind?, _ known: inout KnownKinds) -> (bytes: Int, longest: Int, appCall: Bool, customClipped: Bool) {
        switch self {
        case .record(let b):
            guard let kind else {
                let size = b.queuedSize
                return (size.bytes, size.longest, false, false)
            }
            let bit = kind.bit
            if known.stringFree & bit != 0 { return (RecordBody.stringFreeBytes, 0, known.appCall & bit != 0, false) }
            let w = b.queuedWalk, appCall = kind.isAppCall
            if w.stringFree {
                known.stringFree |= bit
                if appCall { known.appCall |= bit }
            }
            return (w.bytes, w.longest, appCall, false)
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
