import TestSupport
@testable import TraceCodec
@testable import TraceModel
import XCTest

final class CodecTests: XCTestCase {
    func test_everyRecordTypeRoundTrips() throws {
        let decoder = RecordDecoder()
        for (i, body) in Fixtures.bodies.enumerated() {
            let r = Record(seq: i, t: Int64(i) * 7, body)
            let line = r.jsonLine
            let back = try decoder.decode(line)
            if case .unknown(let type, let json) = body {
                XCTAssertEqual(back.body, .unknown(type: type, json: json))
            } else {
                XCTAssertEqual(back, r, line)
            }
        }
    }

    func test_fieldsInAnyOrderAndUnknownFieldsIgnored() throws {
        let d = RecordDecoder()
        let r = try d.decode(#"{"target":"speaker","x":{"a":[1,2,{"b":null}]},"type":"api.setRoute","t":5,"seq":3}"#)
        XCTAssertEqual(r, Record(seq: 3, t: 5, .setRoute(target: .speaker, api: nil)))
    }

    func test_escapesAndUnicodeDecode() throws {
        let d = RecordDecoder()
        let r = try d.decode(#"{"seq":1,"t":0,"type":"api.joinChannel","channel":"a\"b\\c\u00e9\ud83d\ude00\n"}"#)
        XCTAssertEqual(r.body, .joinChannel(channel: "a\"b\\cé😀\n"))
    }

    func test_headerDefaults() throws {
        let d = RecordDecoder()
        let r = try d.decode(#"{"seq":0,"t":0,"type":"trace.header","format":"rtctrace","version":1,"layer":"srtc"}"#)
        guard case .header(let h) = r.body else { return XCTFail() }
        XCTAssertFalse(h.device.simulator)
        XCTAssertTrue(h.app.micUsageDescription)
        XCTAssertTrue(h.app.backgroundAudio)
        XCTAssertNil(h.initialDefaultRoute)
    }

    private func error(_ line: String, file: StaticString = #filePath, lineNo: UInt = #line) -> RecordDecodeError? {
        let d = RecordDecoder()
        do {
            _ = try d.decode(line, lineNumber: 42)
            XCTFail("decoded: \(line)", file: file, line: lineNo)
            return nil
        } catch { return error }
    }

    func test_malformedLineNamesLineAndSalvagedSeq() {
        let e = error(#"{"seq":17,"t":5,"type":"api.setRoute","target":"speaker""#)
        XCTAssertEqual(e?.seq, 17)
        XCTAssertEqual(e?.line, 42)
        XCTAssertNil(e?.field)
        XCTAssertTrue(e!.description.contains("seq 17"), e!.description)
        let garbage = error("not json at all")
        XCTAssertNil(garbage?.seq)
        XCTAssertTrue(garbage!.description.hasPrefix("line 42"), garbage!.description)
    }

    func test_wrongTypeNamesField() {
        let e = error(#"{"seq":3,"t":5,"type":"api.setAudioModuleEnabled","enabled":"yes"}"#)
        XCTAssertEqual(e?.seq, 3)
        XCTAssertEqual(e?.field, "enabled")
        XCTAssertTrue(e!.reason.contains("boolean"), e!.reason)
    }

    func test_unknownEnumValueNamesFieldAndValue() {
        let e = error(#"{"seq":4,"t":5,"type":"api.setRoute","target":"bluetooth"}"#)
        XCTAssertEqual(e?.field, "target")
        XCTAssertTrue(e!.reason.contains("\"bluetooth\"") && e!.reason.contains("speaker, earpiece"), e!.reason)
    }

    func test_missingRequiredFieldNamesIt() {
        let e = error(#"{"seq":5,"t":5,"type":"obs.routeChanged","route":"speaker","reason":"override"}"#)
        XCTAssertEqual(e?.field, "previousRoute")
        XCTAssertTrue(e!.reason.contains("missing"))
    }

    func test_nestedFieldPathIsNamed() {
        let e = error(#"{"seq":6,"t":5,"type":"srv.qualityReport","pub":{"level":"good"},"sub":{"level":"meh"}}"#)
        XCTAssertEqual(e?.field, "sub.level")
        let s = error(#"{"seq":7,"t":5,"type":"srv.speakers","speaking":[{"uid":"a","trackId":"b","level":1},{"uid":"c","level":1}],"stopped":[]}"#)
        XCTAssertEqual(s?.field, "speaking[1].trackId")
    }

    func test_unreadableSeqFallsBackToLine() {
        let e = error(#"{"seq":"x","t":5,"type":"api.leaveChannel"}"#)
        XCTAssertNil(e?.seq)
        XCTAssertEqual(e?.field, "seq")
        XCTAssertTrue(e!.description.hasPrefix("line 42"), e!.description)
    }

    func test_hostileNumbersAndText() {
        XCTAssertEqual(error(#"{"seq":-1,"t":5,"type":"api.leaveChannel"}"#)?.field, "seq")
        XCTAssertEqual(error(#"{"seq":99999999999999999999,"t":5,"type":"api.leaveChannel"}"#)?.field, "seq")
        XCTAssertEqual(error(#"{"seq":1,"t":1.5,"type":"api.leaveChannel"}"#)?.field, "t")
        XCTAssertNotNil(error(#"{"seq":1,"t":1,"type":"sdk.qualityChanged","overall":"good","previous":"good","mos":NaN}"#))
        XCTAssertNotNil(error(#"{"seq":1,"t":1,"type":"sdk.qualityChanged","overall":"good","previous":"good","mos":1e999}"#))
        var bad = Array(#"{"seq":1,"t":1,"type":"api.joinChannel","channel":"ab"}"#.utf8)
        bad[bad.count - 4] = 0xFF
        let d = RecordDecoder()
        XCTAssertThrowsError(try d.decode(bad)) { XCTAssertTrue("\($0)".contains("UTF-8")) }
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        XCTAssertTrue(error(#"{"seq":1,"t":1,"type":"api.leaveChannel","x":"# + deep + "}")!.reason.contains("nesting"))
    }

    func test_replacingSeqKeepsEveryOtherByte() {
        let line = Array(#"{"t":5, "seq" : 12 ,"type":"x.y","extra":[1,2]}"#.utf8)
        let out = RecordDecoder.replacingSeq(in: line, with: 7).map { String(decoding: $0, as: UTF8.self) }
        XCTAssertEqual(out, #"{"t":5, "seq" : 7 ,"type":"x.y","extra":[1,2]}"#)
    }

    func test_jsonWriterEscapesControlCharacters() {
        XCTAssertEqual(JSONWriter.quoted("a\"b\\\n\u{1B}\u{7F}"), #""a\"b\\\n\u001b\u007f""#)
    }
}
