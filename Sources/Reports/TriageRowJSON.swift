import Analysis
import TraceModel

/// A triage row as one line of JSON (schema `rtctrace.triage/2`, documented in docs/triage.md; every
/// key of `rtctrace.triage/1` is kept with its meaning).
///
/// Every key is always present (null or empty when unknown), in a fixed order, so that a SQL engine
/// infers one schema for a whole file and the same trace always gives the same bytes.
package enum TriageRowJSON {
    /// The schema id every row carries.
    package static let schema = "rtctrace.triage/2"

    /// Renders one row, without a trailing newline.
    package static func render(_ row: TriageRow) -> String {
        var w = JSONWriter(reserving: 1536)
        write(row, into: &w)
        return w.string
    }

    /// Appends one row to a writer.
    package static func write(_ row: TriageRow, into w: inout JSONWriter) {
        w.beginObject()
        w.key("schema"); w.string(schema)
        w.key("path"); w.path(row.path)
        w.key("parts"); w.beginArray()
        for p in row.parts { w.path(p) }
        w.endArray()
        w.key("partCount"); w.int(row.partCount)
        w.key("session"); w.string(row.session)
        w.key("size"); w.int(row.size)
        w.key("contentHash"); w.string(row.contentHash)
        w.key("duplicateOf"); w.path(row.duplicateOf)
        w.key("layer"); w.string(row.layer?.rawValue)
        w.key("sdk"); w.string(row.sdk)
        w.key("device"); w.string(row.device)
        w.key("os"); w.string(row.os)
        w.key("simulator"); w.bool(row.simulator)
        w.key("bundleId"); w.string(row.bundleId)
        w.key("appVersion"); w.string(row.appVersion)
        w.key("channel"); w.string(row.channel)
        w.key("room"); w.string(row.room)
        w.key("uid"); w.string(row.uid)
        w.key("startedAt"); w.string(row.startedAt)
        w.key("startedAtUtc"); w.string(row.startedAtUTC)
        w.key("day"); w.string(row.day)
        w.key("dayUtc"); w.string(row.dayUTC)
        w.key("durationMs"); w.int(row.durationMs)
        w.key("records"); w.int(row.records)
        w.key("droppedRecords"); w.int(row.droppedRecords)
        w.key("damage"); w.beginObject()
        w.key("problems"); w.int(row.problems)
        w.key("byKind"); counts(row.problemsByKind.sorted { $0.key < $1.key }, &w)
        w.key("first"); w.string(row.firstProblem)
        w.key("recordsWithClippedStrings"); w.int(row.recordsWithClippedStrings)
        w.endObject()
        w.key("unexplainable"); w.string(row.unexplainable)
        w.key("incompleteSession"); w.string(row.incompleteSession)
        w.key("partial"); w.string(row.partial)
        w.key("calls"); w.int(row.calls)
        w.key("callsByKind"); counts(row.callsByKind.sorted { $0.key < $1.key }, &w)
        w.key("notTakingEffect"); w.beginObject()
        w.key("total"); w.int(row.notTakingEffect)
        w.key("byCause"); counts(row.notTakingEffectByCause.sorted { $0.key < $1.key }, &w)
        w.key("causes"); counts(row.causes(notTaking: true).sorted { $0.key < $1.key }, &w)
        w.endObject()
        w.key("tookEffectLate"); w.beginObject()
        w.key("total"); w.int(row.tookEffectLate)
        w.key("causes"); counts(row.causes(notTaking: false).sorted { $0.key < $1.key }, &w)
        w.endObject()
        w.key("outcomes"); counts(row.outcomes.sorted { $0.key < $1.key }, &w)
        w.key("restarts"); w.int(row.restarts)
        w.key("blockingDevices"); w.beginArray(); for k in row.blockingDevices { w.string(k) }; w.endArray()
        w.key("divergences"); w.beginObject()
        w.key("explained"); w.int(row.explainedDivergences)
        w.key("unexplained"); w.int(row.unexplainedDivergences)
        w.key("uncertain"); w.int(row.uncertainDivergences)
        w.endObject()
        w.key("findings"); counts(row.findings.sorted { $0.key < $1.key }.map { ($0.key.rawValue, $0.value) }, &w)
        w.key("errors"); w.int(row.errors)
        w.key("interruptions"); w.beginObject()
        w.key("total"); w.int(row.interruptions)
        w.key("byCause"); counts(row.interruptionsByCause.sorted { $0.key < $1.key }, &w)
        w.endObject()
        w.key("reconnects"); w.int(row.reconnects)
        w.key("mos")
        if let m = row.mos {
            w.beginObject()
            w.key("min"); w.raw(fixed(m.lowerBound, 2))
            w.key("max"); w.raw(fixed(m.upperBound, 2))
            w.endObject()
        } else { w.null() }
        w.key("quality")
        if let time = row.qualityTimeMs {
            w.beginObject()
            w.key("timeMs"); counts(time.map { ($0.level, Int($0.ms)) }, &w)
            w.key("worst")
            if let worst = row.worstQuality {
                w.beginObject()
                w.key("startT"); w.int(worst.startT)
                w.key("endT"); w.int(worst.endT)
                w.key("durationMs"); w.int(worst.endT - worst.startT)
                w.endObject()
            } else { w.null() }
            w.endObject()
        } else { w.null() }
        w.key("tags"); w.beginArray()
        for t in row.tags { w.string(t.rawValue) }
        w.endArray()
        w.key("recorderPauses"); w.int(row.recorderPauses)
        w.key("reportIds"); w.beginArray()
        for id in row.reportIds { w.string(id) }
        w.endArray()
        w.key("signature"); w.string(TriageSummary.Signature(row)?.key)
        w.key("command"); w.string(row.command ?? Triage.command(naming: row.parts.isEmpty ? [row.path] : row.parts))
        // Only rows of a `--whatif` run carry it (all of that run's rows do).
        if let x = row.whatif { w.key("whatif"); TriageWhatIfReport.json(x, &w) }
        w.endObject()
    }

    static func counts(_ pairs: [(String, Int)], _ w: inout JSONWriter) {
        w.beginObject()
        for (k, n) in pairs { w.key(k); w.int(n) }
        w.endObject()
    }
}
