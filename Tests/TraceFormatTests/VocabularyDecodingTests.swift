@testable import TraceCodec
@testable import TraceModel
import XCTest

/// Since version 3 some enum fields are open (T1): an unlisted value is kept, never a decoding error.
/// Every other enum field stays closed.
final class VocabularyDecodingTests: XCTestCase {
    let decoder = RecordDecoder()

    func line(_ type: String, _ fields: String) -> String {
        #"{"seq":1,"t":5,"type":"\#(type)",\#(fields)}"#
    }

    func test_theOpenFieldsKeepAnUnlistedValue() throws {
        let cases: [(String, String, (RecordBody) -> String?)] = [
            ("os.interruptionBegan", #""cause":"builtInMicMuted""#, {
                if case .interruptionBegan(let c, _) = $0 { c?.unlistedValue } else { nil } }),
            ("os.deviceConnected", #""id":"d","kind":"hearingAid""#, {
                if case .deviceConnected(_, let k, _, _) = $0 { k.unlistedValue } else { nil } }),
            ("os.callState", #""state":"ringing""#, { if case .callState(let s) = $0 { s.unlistedValue } else { nil } }),
            ("os.appState", #""state":"suspended""#, { if case .appState(let s) = $0 { s.unlistedValue } else { nil } }),
            ("os.micPermission", #""status":"restricted""#, { if case .micPermission(let s) = $0 { s.unlistedValue } else { nil } }),
            ("os.callKit", #""event":"mute""#, { if case .callKit(let e, _) = $0 { e.unlistedValue } else { nil } }),
        ]
        for (type, fields, unlisted) in cases {
            let r = try decoder.decode(line(type, fields))
            XCTAssertNotNil(unlisted(r.body), "\(type) keeps its unlisted value: \(r.body)")
        }
    }

    func test_aListedValueOfAnOpenFieldIsTheListedCase() throws {
        let r = try decoder.decode(line("os.callState", #""state":"connected""#))
        XCTAssertEqual(r.body, .callState(state: .connected))
    }

    func test_theClosedFieldsRejectAnUnlistedValueNamingTheField() {
        let cases: [(String, String, String)] = [
            ("sdk.callStateChanged", #""state":"ringing""#, "state"),
            ("api.setRoute", #""target":"bluetooth""#, "target"),
            ("conn.state", #""state":"paused""#, "state"),
            ("obs.routeChanged", #""route":"airplay""#, "route"),
        ]
        for (type, fields, field) in cases {
            XCTAssertThrowsError(try decoder.decode(line(type, fields)), type) { error in
                let text = "\(error)"
                XCTAssertTrue(text.contains(field) && text.contains("unknown value"), "\(type): \(text)")
            }
        }
    }

    /// A vocabulary is hashed by its case (`TraceVocabulary.hash(into:)`): each case is one byte, and no two
    /// cases share it.
    func test_vocabulariesHashByTheirCase() {
        func check<E: TraceVocabulary>(_: E.Type) {
            XCTAssertEqual(MemoryLayout<E>.size, 1, "\(E.self)")
            XCTAssertEqual(Set(E.allCases.map { unsafeBitCast($0, to: UInt8.self) }).count, E.allCases.count, "\(E.self)")
            XCTAssertEqual(Set(E.allCases).count, E.allCases.count, "\(E.self)")
        }
        check(FindingCode.self)
        check(RuleID.self)
        check(VerdictKind.self)
        check(VerdictCause.self)
        check(OutcomeKind.self)
        check(QualityLevel.self)
        check(Route.self)
        check(RouteTarget.self)
        check(Layer.self)
    }
}
