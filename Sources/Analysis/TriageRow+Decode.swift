import Contract
import TraceCodec
import TraceModel

extension TriageRow {
    /// Why a line is not a triage row the summary can count.
    package struct DecodeError: Error, Sendable, Equatable, CustomStringConvertible {
        /// What is wrong, naming the key.
        package var description: String
    }

    /// A row read back from its JSON (`rtctrace.triage/1` or `/2`): every key the summary counts (the
    /// path and parts, content hash, size, records, header facts, divergences, findings, errors, tags, the
    /// recorder's pauses, report ids and command; a key a row of an earlier version lacks is taken as null or empty). What the JSON only
    /// holds as totals (what became of each call) is not read back.
    package init(json v: JSONValue) throws(DecodeError) {
        guard let object = v.object else { throw DecodeError(description: TriageRowWords.notAnObject) }
        func fail(_ key: String, _ what: String) -> DecodeError { DecodeError(description: "\(key): \(what)") }
        func string(_ key: String, in o: [String: JSONValue] = object) throws(DecodeError) -> String? {
            guard let x = o[key], !x.isNull else { return nil }
            guard let s = x.string else { throw fail(key, TriageRowWords.expectedStringOrNull) }
            return s
        }
        func int(_ key: String, in o: [String: JSONValue] = object) throws(DecodeError) -> Int {
            guard let x = o[key], !x.isNull else { return 0 }
            guard let n = x.int, n >= 0 else { throw fail(key, TriageRowWords.expectedNonNegativeCount) }
            return n
        }
        func strings(_ key: String) throws(DecodeError) -> [String] {
            guard let x = object[key], !x.isNull else { return [] }
            guard let a = x.array else { throw fail(key, TriageRowWords.expectedStrings) }
            var out: [String] = []
            for e in a {
                guard let s = e.string else { throw fail(key, TriageRowWords.expectedStrings) }
                out.append(s)
            }
            return out
        }
        guard let schema = try string("schema"), schema.hasPrefix("rtctrace.triage/") else {
            throw fail("schema", TriageRowWords.notATriageRow)
        }
        guard let path = try string("path") else { throw fail("path", "missing") }
        self.init(path: path)
        parts = try strings("parts")
        session = try string("session")
        size = try int("size")
        contentHash = try string("contentHash")
        duplicateOf = try string("duplicateOf")
        if let l = try string("layer") {
            guard let layer = Layer(rawValue: l) else { throw fail("layer", TriageRowWords.notALayer(l)) }
            self.layer = layer
        }
        sdk = try string("sdk")
        device = try string("device")
        os = try string("os")
        if let s = object["simulator"], !s.isNull {
            guard let b = s.bool else { throw fail("simulator", TriageRowWords.expectedBooleanOrNull) }
            simulator = b
        }
        bundleId = try string("bundleId")
        appVersion = try string("appVersion")
        startedAt = try string("startedAt")
        startedAtUTC = try string("startedAtUtc")
        records = try int("records")
        droppedRecords = try int("droppedRecords")
        if let damage = object["damage"]?.object {
            problems = try int("problems", in: damage)
            firstProblem = try string("first", in: damage)
            recordsWithClippedStrings = try int("recordsWithClippedStrings", in: damage)
            for (k, n) in damage["byKind"]?.object ?? [:] {
                guard let n = n.int else { throw fail("damage.byKind.\(k)", TriageRowWords.expectedCount) }
                problemsByKind[k] = n
            }
        }
        unexplainable = try string("unexplainable")
        incompleteSession = try string("incompleteSession")
        partial = try string("partial")
        calls = try int("calls")
        if object["restarts"] != nil { restarts = try int("restarts") }
        if object["blockingDevices"] != nil { blockingDevices = try strings("blockingDevices") }
        if let d = object["divergences"]?.object {
            explainedDivergences = try int("explained", in: d)
            unexplainedDivergences = try int("unexplained", in: d)
            if d["uncertain"] != nil { uncertainDivergences = try int("uncertain", in: d) }
        }
        for (k, n) in object["findings"]?.object ?? [:] {
            guard let code = FindingCode(rawValue: k) else { throw fail("findings", TriageRowWords.unknownFindingCode(k)) }
            guard let n = n.int, n >= 0 else { throw fail("findings.\(k)", TriageRowWords.expectedCount) }
            findings[code] = n
        }
        errors = try int("errors")
        var tags: [TriageTag] = []
        for t in try strings("tags") {
            guard let tag = TriageTag(rawValue: t) else { throw fail("tags", TriageRowWords.unknownTag(t)) }
            tags.append(tag)
        }
        self.tags = Set(tags).sorted()
        recorderPauses = try int("recorderPauses")
        reportIds = try strings("reportIds")
        command = try string("command")
        if let x = object["whatif"], let o = x.object {
            var w = TriageWhatIf()
            w.improves = o["improves"]?.bool ?? false
            w.historyEndsAt = o["historyEndsAt"]?.int.map(Int64.init)
            w.callsTakingEffect = try int("callsTakingEffect", in: o)
            w.callsNotTakingEffect = try int("callsNotTakingEffect", in: o)
            w.findingsRemoved = try int("findingsRemoved", in: o)
            w.findingsAdded = try int("findingsAdded", in: o)
            w.divergencesRemoved = try int("divergencesRemoved", in: o)
            w.divergencesAdded = try int("divergencesAdded", in: o)
            w.resolvedTags = (o["resolvedTags"]?.array ?? []).compactMap { $0.string.flatMap(TriageTag.init(rawValue:)) }
            w.remainingTags = (o["remainingTags"]?.array ?? []).compactMap { $0.string.flatMap(TriageTag.init(rawValue:)) }
            w.error = try string("error", in: o)
            whatif = w
        }
    }
}
