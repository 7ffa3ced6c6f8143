import Contract
import Replay
import TraceModel

/// What became audible later of a call that was ineffective behind an external device: the override it
/// recorded took the route when that device disconnected (R5), linked under the call.
package struct LaterEffect: Equatable, Sendable {
    /// The `os.deviceDisconnected` at which the override became the route.
    package var seq: Int
    /// When.
    package var t: Int64
    /// The route it gave.
    package var route: Route
    /// The device, in words (kind and name).
    package var device: String
}

extension Explanation {
    /// The later effect of a `setRoute` that was ineffective because an external device had the route: the
    /// first prediction after it that changes to the asked route at that device's disconnect, with the
    /// override still the call's (no later route call, leave or exit in between). `lookups`, when given, is
    /// the result's index (see `Lookups`): the search then starts at the first segment at or after the call.
    package static func laterEffect(_ v: Verdict, _ r: ReplayResult, lookups: Lookups? = nil) -> LaterEffect? {
        guard v.call == .setRoute, (v.outcome?.cause ?? v.cause) == .externalRouteActive, let causeSeq = v.causeSeq else { return nil }
        // The device and the route asked are looked up where a segment first needs them: most calls of a long
        // trace are followed by another before any segment, and need neither.
        var asked: (device: IndexedRecord, id: String, target: Route)?
        // The seqs after the call are looked at once, in order, as far as a segment needs: a record that ends
        // the override before a segment's seq ends the search (it is before every later segment's too, or
        // that segment's seq is lower and the search reached it already).
        var scanned = v.seq + 1
        var end: Int?
        let timeline = r.predictedTimeline
        for segment in timeline[(lookups?.firstPredicted(atOrAfter: v.t) ?? 0)...] where segment.t >= v.t {
            guard let seq = segment.seq, seq > v.seq else { continue }
            while end == nil && scanned < seq {
                if r.recordIndex[scanned].map({ endsOverride($0.body.kind) }) ?? false { end = scanned }
                scanned += 1
            }
            if let end, end < seq { return nil }
            if asked == nil {
                guard let device = r.recordIndex[causeSeq], let id = device.deviceId,
                      let target = r.recordIndex[v.seq]?.target?.route else { return nil }
                asked = (device, id, target)
            }
            guard let asked, segment.route == asked.target, let record = r.recordIndex[seq],
                  record.type == "os.deviceDisconnected", record.deviceId == asked.id else { continue }
            return LaterEffect(seq: seq, t: record.t, route: asked.target,
                               device: (asked.device.deviceKind ?? .bluetooth).words(named: asked.device.deviceName))
        }
        return nil
    }

    /// Whether a record of `kind` ends a route override: by its kind, not its type's text (no string
    /// hashed per seq looked at).
    private static func endsOverride(_ kind: RecordKind?) -> Bool {
        kind.map(overrideEndKinds.contains) ?? false
    }

    /// The kinds of the records that end a route override.
    private static let overrideEndKinds: [RecordKind] = [.setRoute, .clearRouteOverride, .leaveChannel, .exitMeeting]
}
