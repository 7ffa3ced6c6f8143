import Foundation
import TestSupport
import TraceFixtures
import TraceModel
@testable import TraceRecorder
import XCTest

/// What a producer learns of record kinds on the caller's path: the personal-field map's answer that a
/// kind holds no string field (so its records are not walked), kept per kind, one bit each.
final class KnownKindsTests: XCTestCase {
    var dir = ""
    override func setUp() { dir = Support.tempDir() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    func test_everyKind_hasABitOfItsOwn() {
        let bits = RecordKind.allCases.map(\.bit)
        XCTAssertLessThanOrEqual(bits.count, 64)
        XCTAssertEqual(Set(bits).count, bits.count, "no two kinds share a bit")
        XCTAssertTrue(bits.allSatisfy { $0 != 0 && $0 & ($0 - 1) == 0 }, "one bit each")
    }

    /// The map's answer is the kind's, whatever the values: a kind said to hold no string field never
    /// visits one, and with every optional field present and every list filled, a kind said to hold
    /// one visits one.
    func test_theMapsAnswer_isTheKinds_whateverTheValues() {
        for full in [false, true] {
            var gen = RecordGenerator(seed: 20261205, full: full, unlistedText: true) { "v\($0.next() % 1000)" }
            for kind in RecordKind.allCases {
                var answers = Set<Bool>()
                for _ in 0..<40 {
                    var visited = 0
                    let holds = gen.body(kind).forEachString { _, _ in visited += 1 }
                    answers.insert(holds)
                    if !holds { XCTAssertEqual(visited, 0, "\(kind)") }
                    if full { XCTAssertEqual(holds, visited > 0, "\(kind)") }
                }
                XCTAssertEqual(answers.count, 1, "\(kind): one answer per kind")
            }
        }
        XCTAssertFalse(RecordBody.qualityReport(pub: .init(level: .good), sub: .init(level: .good)).forEachString { _, _ in })
        XCTAssertTrue(RecordBody.setRoute(target: .speaker, api: nil).forEachString { _, _ in }, "an absent optional string is still a field")
    }

    /// A producer's look gives what the walk gives, before and after it has learnt a kind, and it
    /// learns exactly the kinds that hold no string field.
    func test_aProducersLook_givesTheWalksFigures_beforeAndAfterItLearnsAKind() {
        var known = KnownKinds()
        var gen = RecordGenerator(seed: 11) { "value-\($0.next() % 100_000)" }
        for _ in 0..<3 {
            for kind in RecordKind.allCases {
                let body = gen.body(kind)
                // The kind an event holds from where it was made is the body's.
                let event = TraceRecorder.Event(body)
                XCTAssertEqual(event.kind, body.kind, "\(kind)")
                let look = event.payload.callerLook(kind: event.kind, &known)
                let walk = body.queuedSize
                XCTAssertEqual(look.bytes, walk.bytes, "\(kind)")
                XCTAssertEqual(look.longest, walk.longest, "\(kind)")
                XCTAssertEqual(look.appCall, kind.isAppCall, "\(kind)")
                XCTAssertFalse(look.customClipped)
            }
        }
        let stringFree = RecordKind.allCases.filter { !gen.body($0).forEachString { _, _ in } }
        XCTAssertFalse(stringFree.isEmpty)
        XCTAssertEqual(known.stringFree, stringFree.reduce(0) { $0 | $1.bit })
        XCTAssertEqual(known.appCall, stringFree.filter(\.isAppCall).reduce(0) { $0 | $1.bit })
    }

    /// A record of a kind with a string field, recorded first without a value there, does not make the
    /// kind string-free: a later record's string over the cap is still clipped, and the byte cap still
    /// counts it.
    func test_aKindRecordedWithoutItsStringValue_isStillWalked() throws {
        let clock = ManualClock()
        var c = Support.configuration(dir, sdk: "SRTC 5.1.0", clock: clock)
        c.records.maxStringBytes = 64
        let r = TraceRecorder(c)
        r.record(.setRoute(target: .speaker, api: nil))
        r.record(.setRoute(target: .speaker, api: String(repeating: "x", count: 1000)))
        r.record(.qualityReport(pub: .init(level: .good), sub: .init(level: .poor)))
        r.record(.qualityReport(pub: .init(level: .good), sub: .init(level: .poor)))
        XCTAssertTrue(r.close(timeout: 20))
        let s = r.statistics
        XCTAssertEqual(s.clipped, 1)
        XCTAssertEqual(s.accepted, 4)
        XCTAssertEqual(s.dropped, 0)
    }
}
