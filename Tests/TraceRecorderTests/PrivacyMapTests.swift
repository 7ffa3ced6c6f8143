import Analysis
import TestSupport
import TraceModel
@testable import TraceRecorder
import XCTest

/// The one personal-field map (`RecordBody.mapStrings`): it names every string field of every record
/// type, `rtctrace redact` leaves no personal value behind, and the recorder's source redaction changes
/// exactly the fields `redact` changes.
final class PrivacyMapTests: XCTestCase {
    /// Every record type (and every kind of expectation), each string field holding its own marker.
    func markedRecords() -> [Record] {
        var counter = 0
        var g = RecordGenerator(seed: 99, full: true) { _ in
            counter += 1
            return "MARK\(counter)X"
        }
        var records = RecordKind.allCases.enumerated().map { i, kind in Record(seq: i, t: Int64(i), g.body(kind)) }
        for i in 0..<15 { records.append(Record(seq: records.count, t: Int64(records.count), g.expectation(i))) }
        return records
    }

    static func markers(in text: String) -> Set<String> {
        var out = Set<String>()
        var rest = text[...]
        while let r = rest.range(of: "MARK") {
            let tail = rest[r.upperBound...]
            let digits = tail.prefix { $0.isNumber }
            if tail.dropFirst(digits.count).first == "X" { out.insert("MARK" + digits + "X") }
            rest = tail
        }
        return out
    }

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
}
