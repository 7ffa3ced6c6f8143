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
        guard v.call == .setRoute, (v.outcome?.cause ?? v.cause) == .externalRouteActive, let causeSeq = v.causeSeq,
              let device = r.recordIndex[causeSeq], let id = device.deviceId,
              let target = r.recordIndex[v.seq]?.target?.route else { return nil }
        // The seqs after the call are looked at once, in order, as far as a segment needs: a record that ends
        // the override before a segment's seq ends the search (it is before every later segment's too, or
        // that segment's seq is lower and the search reached it already).
        var scanned = v.seq + 1
        var end: Int?
        let timeline = r.predictedTimeline
        for segment in timeline[(lookups?.firstPredicted(atOrAfter: v.t) ?? 0)...] where segment.t >= v.t {
            guard let seq = segment.seq, seq > v.seq else { continue }
            while end == nil && scanned < seq {
                if r.recordIndex[scanned].map({ overrideEnds.contains($0.type) }) ?? false { end = scanned }
                scanned += 1
            }
            if let end, end < seq { return nil }
            guard segment.route == target, let record = r.recordIndex[seq], record.type == "os.deviceDisconnected",
                  record.deviceId == id else { continue }
            return LaterEffect(seq: seq, t: record.t, route: target,
                               device: (device.deviceKind ?? .bluetooth).words(named: device.deviceName))
        }
        return nil
    }

    /// The types of the records that end a route override (made once, not once per call told).
    private static let overrideEnds: Set<String> = Set([RecordKind.setRoute, .clearRouteOverride, .leaveChannel, .exitMeeting].map(\.rawValue))
}
