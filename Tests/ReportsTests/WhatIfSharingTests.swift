@testable import Analysis
import Replay
import TraceModel
import XCTest

/// What a what-if shares between the original and the edited trace instead of making twice: the index by
/// seq answers as a table would, and the edited side's identities are those its records have.
final class WhatIfSharingTests: XCTestCase {
    func test_seqIndexAnswersAsATableKeyedBySeq() {
        var rng = SystemRandomNumberGenerator()
        for round in 0..<50 {
            var index = SeqIndex(), table: [Int: Int] = [:]
            XCTAssertTrue(index.isEmpty)
            for _ in 0..<400 {
                // Dense seqs, gaps, negative and huge ones, repeats, and removals.
                let seq: Int = switch Int.random(in: 0..<10, using: &rng) {
                case 0: Int.random(in: -50...(-1), using: &rng)
                case 1: Int.random(in: 10_000...1_000_000_000, using: &rng)
                default: Int.random(in: 0...(round * 100 + 20), using: &rng)
                }
                // Values that fit in 32 bits and values that do not (a damaged trace's seqs).
                let value: Int? = switch Int.random(in: 0..<8, using: &rng) {
                case 0: nil
                case 1: [Int(Int32.min), Int(Int32.max) + 1, -5_000_000_000, Int.max].randomElement(using: &rng)!
                default: Int.random(in: -3...1_000, using: &rng)
                }
                index[seq] = value
                table[seq] = value
                let probe = Int.random(in: -60...(round * 300 + 9_000), using: &rng)
                XCTAssertEqual(index[probe], table[probe], "seq \(probe)")
            }
            for (seq, value) in table { XCTAssertEqual(index[seq], value, "seq \(seq)") }
            for seq in -60...(round * 100 + 5_000) where table[seq] == nil { XCTAssertNil(index[seq], "seq \(seq)") }
        }
    }

    func test_theEditedSideSharesTheOriginalsIdentitiesOnlyWhereItsRecordsAreTheOriginals() throws {
        let activated = RecordBody.sessionActivated(SessionActivation(ok: true, category: "playAndRecord", mode: "voiceChat", options: []))
        let sample = QualitySample(level: .good, mos: 4.1)
        let poor = QualitySample(level: .poor, mos: 2.1)
        let bodies: [(Int64, RecordBody)] = [
            (0, .header(TraceHeader(layer: .srtc, sdk: "SRTC 4.6.2", device: .init(model: "iPhone15,2", os: "iOS 17.4")))),
            (100, .joinChannel(channel: "c")), (200, activated), (300, .qualityReport(pub: sample, sub: poor)),
            (400, .deviceConnected(id: "bt-1", kind: .bluetooth, name: "AirPods", port: nil)),
            (500, .qualityReport(pub: poor, sub: sample)), (600, .setRoute(target: .speaker, api: nil)),
            (700, .qualityReport(pub: sample, sub: poor)), (800, activated), (900, .leaveChannel),
        ]
        let records = bodies.enumerated().map { Record(seq: $0.offset, t: $0.element.0, $0.element.1) }
        let base = WhatIfBase(records: records, file: "t")
        let edits: [WhatIfEdit] = [.session(.mode, value: "default", from: 500), .move(seq: 6, after: 2), .drop(seq: 4),
                                   .insert(json: #"{"type":"api.setRoute","target":"earpiece"}"#, at: 650, after: nil)]
        let edited = try EditedTrace.apply(edits, to: records)
        var fresh = DiffSide(file: "t (edited)", result: ReplayResult(file: "t (edited)"))
        for r in edited.records { fresh.note(r) }
        let shared = WhatIf.editedSide(base, edited, file: "t (edited)")
        func identities(_ s: DiffSide) -> [String] {
            s.records.indices.map { "\(s.records[$0].seq) \(s.records[$0].t) \(s.type($0)) \(s.identity($0).key) \(s.label($0))" }
        }
        XCTAssertEqual(identities(shared), identities(fresh))
        XCTAssertEqual(edited.records.indices.map { shared.indexBySeq[$0] }, edited.records.indices.map { fresh.indexBySeq[$0] })
        XCTAssertEqual(shared.header, fresh.header)
        XCTAssertEqual(edited.origins.map { $0 >= 0 }, [true, true, true, true, true, true, false, true, false, true],
                       "the inserted call and the edited activation have identities of their own")
        XCTAssertEqual(shared.result.verdicts, Replay.run(records: edited.records, file: "t (edited)").verdicts)
        XCTAssertEqual(edited.records.indices.filter(edited.isHistory), edited.records.filter(WhatIf.isHistory).map(\.seq))
    }
}
