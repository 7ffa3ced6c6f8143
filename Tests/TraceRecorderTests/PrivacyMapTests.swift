import Analysis
import TestSupport
import TraceModel
@testable import TraceRecorder
import XCTest

/// The one personal-field map (`RecordBody.mapStrings`): it names every string field of every record
/// type, `rtctrace redact` leaves no personal value behind, and the recorder's source redaction changes
/// exactly the fields `redact` changes.
final class PrivacyMapTests: XCTestCase {
    func markedRecords() -> [Record] { RecordGenerator.markedRecords() }

    static func markers(in text: String) -> Set<String> { RecordGenerator.markers(in: text) }

    /// Every marker in a record's JSON line sits in a field the map walks (none is forgotten).
    func test_theMapNamesEveryStringFieldOfEveryRecordType() {
        for r in markedRecords() {
            var walked = Set<String>()
            r.body.forEachString { value, _ in walked.formUnion(Self.markers(in: value)) }
            let written = Self.markers(in: r.jsonLine)
            XCTAssertFalse(written.isEmpty && r.body.kind.map { [.header, .joinChannel, .sdkLog].contains($0) } == true, r.type)
            XCTAssertEqual(written.subtracting(walked), [], "\(r.type): fields the map does not name: \(r.jsonLine)")
        }
    }

    /// `redact` leaves no marker outside the fields the map declares clear, and the recorder's source
    /// redaction changes the same fields.
    func test_redactLeavesOnlyClearFields_andSourceRedactionAgreesFieldByField() {
        let redactor = Redactor(salt: "s")
        var source = SourceRedactor(salt: Array("s".utf8))
        for r in markedRecords() {
            var clear = Set<String>(), personal = Set<String>()
            r.body.forEachString { value, field in
                switch field.privacy {
                case .clear: clear.formUnion(Self.markers(in: value))
                case .personal: personal.formUnion(Self.markers(in: value))
                }
            }
            let redacted = redactor.redact(r)
            let left = Self.markers(in: redacted.jsonLine)
            XCTAssertEqual(left.subtracting(clear), [], "\(r.type): personal values left by redact: \(redacted.jsonLine)")
            XCTAssertEqual(left.intersection(personal), [], r.type)
            XCTAssertEqual(clear.subtracting(left), [], "\(r.type): clear values redact dropped: \(redacted.jsonLine)")
            if case .unknown = r.body { continue }
            let atSource = Record(seq: r.seq, t: r.t, source.redact(r.body))
            XCTAssertEqual(Self.markers(in: atSource.jsonLine), left, "\(r.type): source redaction and redact differ: \(atSource.jsonLine) vs \(redacted.jsonLine)")
        }
    }

    /// A value a template log or a custom event declares of a kind gets exactly the token every record
    /// field of that kind gets for it, at the source and from `redact` (the same map decides); free text
    /// keeps the token of the text it is in.
    func test_declaredKinds_takeTheTokenOfEveryFieldOfTheirKind() {
        let redactor = Redactor(salt: "s")
        var source = SourceRedactor(salt: Array("s".utf8))
        var fieldsSeen: [PersonalValue.Kind: Int] = [:]
        for r in markedRecords() {
            guard case .unknown = r.body else {
                var before: [(String, StringField)] = []
                r.body.forEachString { before.append(($0, $1)) }
                var after: [String] = []
                source.redact(r.body).forEachString { v, _ in after.append(v) }
                XCTAssertEqual(before.count, after.count, r.type)
                for ((value, field), token) in zip(before, after) {
                    guard case .personal(let kind) = field.privacy else { continue }
                    for declared in ValueKind.allCases where declared.field == kind {
                        fieldsSeen[kind, default: 0] += 1
                        XCTAssertEqual(source.logValue(value, declared), token, "\(r.type).\(field.path): a log value of kind \(declared)")
                        XCTAssertEqual(source.customValue(value, declared), token, "\(r.type).\(field.path): a custom value of kind \(declared)")
                        XCTAssertEqual(redactor.token(kind, value), token, "\(r.type).\(field.path): redact's token")
                    }
                }
                continue
            }
        }
        for declared in ValueKind.allCases {
            if let kind = declared.field {
                XCTAssertGreaterThan(fieldsSeen[kind] ?? 0, 0, "a record field of kind \(kind) for the declared kind \(declared)")
            } else {
                XCTAssertEqual(source.logValue("Jane at home", declared), redactor.token(.logMessage, "Jane at home"))
                XCTAssertEqual(source.customValue("Jane at home", declared), redactor.token(.unknownRecord, "Jane at home"))
            }
        }
    }

    /// Identifiers are personal: a CallKit call id is replaced (it can carry a name).
    func test_callIdIsPersonal() {
        let r = Record(seq: 1, t: 0, .callKit(event: .answer, callId: "call-Marie-Dupont-0042"))
        XCTAssertFalse(Redactor(salt: "s").redact(r).jsonLine.contains("Marie"))
        var source = SourceRedactor(salt: Array("s".utf8))
        XCTAssertFalse(Record(seq: 1, t: 0, source.redact(r.body)).jsonLine.contains("Marie"))
    }

    /// What the system's vocabulary says stays: port types, a leading error code, log levels, layer reasons.
    func test_vocabularyStays_freeTextGoes() {
        func replace(_ v: String, _ k: PersonalValue.Kind) -> String { PersonalValue.replace(v, k) { kind, _ in kind.prefix + "-T" } }
        XCTAssertEqual(replace("BluetoothHFP", .port), "BluetoothHFP")
        XCTAssertEqual(replace("Jane's car", .port), "port-T")
        XCTAssertEqual(replace("BluetoothHFP:Jane's AirPods", .portEntry), "BluetoothHFP:dev-T")
        XCTAssertEqual(replace("Jane's AirPods", .portEntry), "port-T")
        XCTAssertEqual(replace("webrtcError: send failed to bob@example.com", .errorText), "webrtcError: err-T")
        XCTAssertEqual(replace("isBusy", .errorText), "isBusy")
        XCTAssertEqual(replace("jane_doe", .errorText), "err-T", "an identifier-like text is not an error code")
        XCTAssertEqual(replace("warning", .logLevel), "warning")
        XCTAssertEqual(replace("Jane", .logLevel), "lvl-T")
        XCTAssertEqual(replace("bwe_down", .layerReason), "bwe_down")
        XCTAssertEqual(replace("asked by Bob", .layerReason), "why-T")
    }

    /// An open vocabulary's value (T1) stays in clear only when the format lists or documents it; any
    /// other is tokenised, by `redact` and at the source alike: `{"type":"os.callState","state":"jane.doe@acme.com"}`.
    func test_openVocabularies_keepListedAndDocumentedValues_tokeniseAnyOther() {
        let redactor = Redactor(salt: "s")
        var source = SourceRedactor(salt: Array("s".utf8))
        let personal = "jane.doe@acme.com"
        let bodies: [RecordBody] = [
            .callState(state: .unlisted(personal)), .appState(state: .unlisted(personal)), .micPermission(status: .unlisted(personal)),
            .interruptionBegan(cause: .unlisted(personal), wasSuspended: nil), .callKit(event: .unlisted(personal), callId: nil),
            .deviceConnected(id: "a", kind: .unlisted(personal), name: nil, port: nil),
            .sessionActivated(SessionActivation(ok: true, category: personal, mode: personal, options: [personal, "allowBluetooth"])),
            .setRoute(target: .speaker, api: personal), .sdkError(api: personal, error: "timeout"),
        ]
        for body in bodies {
            let r = Record(seq: 1, t: 0, body)
            let line = redactor.redact(r).jsonLine, atSource = Record(seq: 1, t: 0, source.redact(body)).jsonLine
            XCTAssertFalse(line.contains("jane"), line)
            XCTAssertEqual(line, atSource, "source redaction and redact agree")
        }
        XCTAssertTrue(redactor.redact(Record(seq: 1, t: 0, .callState(state: .unlisted(personal)))).jsonLine.contains("\"state\":\"val-"))
        // Listed and documented values, and calls spelled as Swift spells them, stay.
        let kept: [RecordBody] = [
            .callState(state: .held), .interruptionBegan(cause: .unlisted("builtInMicMuted"), wasSuspended: nil),
            .interruptionBegan(cause: .unlisted("reason7"), wasSuspended: nil), .micPermission(status: .unlisted("1234")),
            .deviceConnected(id: "devid-1", kind: .unlisted("BluetoothLE"), name: nil, port: nil),
            .sessionActivated(SessionActivation(ok: true, category: "playAndRecord", mode: "voiceChat",
                                                options: ["allowBluetoothA2DP", "option0x100", "overrideMutedMicrophoneInterruption"])),
            .setRoute(target: .speaker, api: "setAudioRoute(.speaker)"), .setRoute(target: .speaker, api: "setSpeakerOutputEnabled(true)"),
            .sdkError(api: "switchLayer(pubUid:trackId:targetTrackId:)", error: "webrtcError"), .sdkError(api: "switchLayer", error: "timeout"),
        ]
        for body in kept {
            let r = Record(seq: 1, t: 0, body)
            XCTAssertEqual(redactor.redact(r).jsonLine, r.jsonLine.replacingOccurrences(of: "devid-1", with: redactor.token(.deviceId, "devid-1")))
        }
        // A call spelled otherwise keeps its base name (the contract matches on it, L4), its arguments go.
        let call = redactor.redact(Record(seq: 1, t: 0, .sdkError(api: "switchLayer(jane.doe@acme.com)", error: "timeout"))).jsonLine
        XCTAssertTrue(call.contains("\"api\":\"switchLayer(api-"), call)
        XCTAssertFalse(call.contains("jane"), call)
    }

    /// A custom record type stays in clear only when it follows the recorder's naming rule; any other is
    /// tokenised after its family prefix.
    func test_customTypeNames_followingTheNamingRuleStay_othersAreTokenisedAfterTheirFamily() {
        let redactor = Redactor(salt: "s")
        func redacted(_ type: String) -> String {
            let r = Record(seq: 3, t: 5, .unknown(type: type, json: "{\"seq\":3,\"t\":5,\"type\":\"\(type)\"}"))
            guard case .unknown(let t, _) = redactor.redact(r).body else { return "" }
            return t
        }
        XCTAssertEqual(redacted("x.rtpStats"), "x.rtpStats")
        XCTAssertEqual(redacted("x.media-stats_2.v1"), "x.media-stats_2.v1")
        let long = "x." + String(repeating: "a", count: 64)
        XCTAssertEqual(redacted(long), long)
        for hostile in ["x.jane.doe@acme.com", "x." + String(repeating: "a", count: 65), "x.Jane Doe", "x.", "jane", "x.é"] {
            let t = redacted(hostile)
            XCTAssertTrue(t.hasPrefix(hostile.hasPrefix("x.") ? "x.type-" : "type-"), "\(hostile) → \(t)")
            XCTAssertTrue(CustomRecordName.follows(t) || !hostile.hasPrefix("x."), t)
        }
        // The recorder makes every name follow the rule, so its custom events keep their type.
        XCTAssertTrue(CustomRecordName.follows(CustomRecordName.prefix + CustomRecordName.safeName("jane.doe@acme.com", allowDots: true)))
        XCTAssertEqual(TraceRecorder.CustomEvent(name: "rtp Stats!", values: []).type, "x.rtp_Stats_")
    }

    /// docs/report.md shows what the map keeps in clear: every field the map can keep in clear has its
    /// row in the "What stays in clear" table, which names the record type and the field.
    func test_docsListEveryFieldTheMapKeepsInClear() throws {
        let doc = try String(contentsOfFile: Fixtures.root + "/docs/report.md", encoding: .utf8)
        let table = doc.components(separatedBy: "**What stays in clear.**").last!.components(separatedBy: "\n\n").dropFirst().first ?? ""
        var seen = Set<String>()
        for seed in 0..<8 {
            // Values that follow every pattern the map keeps: listed words, names, no markers.
            var g = RecordGenerator(seed: UInt64(seed), full: true) { _ in "abc" }
            for kind in RecordKind.allCases {
                let body = g.body(kind)
                body.forEachString { _, field in
                    guard case .clear = field.privacy else { return }
                    let name = "\(body.type) \(field.path)"
                    guard seen.insert(name).inserted else { return }
                    let path = "\(field.path)".split(separator: ".").last.map(String.init) ?? ""
                    XCTAssertTrue(table.split(separator: "\n").contains { $0.contains(body.type) && $0.contains(path) },
                                  "docs/report.md does not list \(name) among the fields kept in clear")
                }
            }
        }
        XCTAssertGreaterThan(seen.count, 15)
    }
}
