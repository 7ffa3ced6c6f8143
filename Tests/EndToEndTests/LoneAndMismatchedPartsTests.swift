import Foundation
import TestSupport
import XCTest

/// A part judged without the parts before it never gets an all-clear, whatever its checkpoint says; parts
/// whose headers disagree on who recorded them (layer, device model, OS, bundle id) are not merged.
final class LoneAndMismatchedPartsTests: XCTestCase {
    var dir = ""
    override func setUp() { dir = CLI.tempDir() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    var session: String { CLI.root + "/traces/smeeting-session-weekly" }

    /// Part 3 of the weekly session alone, its checkpoint as recorded and forged to say all is well.
    func test_aLonePartExitsOneWhateverItsCheckpointSays() throws {
        let part = try String(contentsOfFile: session + "/part-3.jsonl", encoding: .utf8)
        let forged = part.replacingOccurrences(of: #""devices":[{"id":"bt-3c:22:fb:10:aa:01","kind":"bluetooth","name":"AirPods Pro","port":"BluetoothHFP"}]"#,
                                               with: #""devices":[]"#)
            .replacingOccurrences(of: #""currentRoute":"bluetooth""#, with: #""currentRoute":"speaker""#)
        XCTAssertNotEqual(forged, part)
        try forged.write(toFile: dir + "/forged.jsonl", atomically: true, encoding: .utf8)
        for (k, path) in [session + "/part-3.jsonl", dir + "/forged.jsonl"].enumerated() {
            let r = CLI.runInProcess(["explain", path])
            XCTAssertEqual(r.status, 1, "\(path): \(r.out)")
            XCTAssertTrue(r.out.contains("Partial: judged from a checkpoint without the parts before it"), r.out)
            XCTAssertFalse(r.out.contains("Nothing is wrong"), r.out)
            let json = CLI.runInProcess(["explain", "--json", path])
            XCTAssertEqual(json.status, 1)
            XCTAssertTrue(json.out.contains(#""ok":false"#), path)
            XCTAssertEqual(CLI.runInProcess(["report", path, "-o", dir + "/r\(k).html"]).status, 0)
            let page = try String(contentsOfFile: dir + "/r\(k).html", encoding: .utf8)
            XCTAssertTrue(page.contains("Partial: judged from a checkpoint without the parts before it"), path)
        }
        // The whole session is judged as before.
        XCTAssertFalse(CLI.runInProcess(["explain", session]).out.contains("Partial"))
    }

    /// Part 2 of the weekly session, its header changed in one field, beside part 1.
    func test_partsWhoseHeadersDisagreeAreSeparateTraces() throws {
        let one = try String(contentsOfFile: session + "/part-1.jsonl", encoding: .utf8)
        let two = try String(contentsOfFile: session + "/part-2.jsonl", encoding: .utf8)
        let changes: [(field: String, from: String, to: String)] = [
            ("layer srtc, not smeeting", #""layer":"smeeting""#, #""layer":"srtc""#),
            ("device model iPhone9,1, not iPhone15,2", #""model":"iPhone15,2""#, #""model":"iPhone9,1""#),
            ("OS iOS 12.0, not iOS 17.5.1", #""os":"iOS 17.5.1""#, #""os":"iOS 12.0""#),
            ("bundle id com.other.app, not com.example.meet", #""bundleId":"com.example.meet""#, #""bundleId":"com.other.app""#),
        ]
        for (k, change) in changes.enumerated() {
            let folder = dir + "/s\(k)"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try one.write(toFile: folder + "/part-1.jsonl", atomically: true, encoding: .utf8)
            let lines = two.split(separator: "\n", omittingEmptySubsequences: false)
            let header = lines[0].replacingOccurrences(of: change.from, with: change.to)
            XCTAssertNotEqual(header, String(lines[0]), change.field)
            try ([header] + lines.dropFirst().map(String.init)).joined(separator: "\n").write(toFile: folder + "/part-2.jsonl", atomically: true, encoding: .utf8)
            for args in [[folder], [folder + "/part-1.jsonl", folder + "/part-2.jsonl"]] {
                let r = CLI.runInProcess(["explain"] + args)
                XCTAssertEqual(r.status, 64, "\(change.field): \(r.err)")
                XCTAssertTrue(r.err.contains("holds 2 traces"), r.err)
                XCTAssertTrue(r.err.contains("is not part of the same recording as \(folder)/part-1.jsonl (part 1): its header says \(change.field)"), r.err)
            }
            let rows = CLI.runInProcess(["triage", folder]).out.split(separator: "\n")
            XCTAssertEqual(rows.count, 2, "separate traces, one row each")
            XCTAssertTrue(rows.allSatisfy { $0.contains(#""parts":[]"#) }, change.field)
        }
        // Headers that agree still make one session.
        let same = dir + "/same"
        try FileManager.default.createDirectory(atPath: same, withIntermediateDirectories: true)
        try one.write(toFile: same + "/part-1.jsonl", atomically: true, encoding: .utf8)
        try two.write(toFile: same + "/part-2.jsonl", atomically: true, encoding: .utf8)
        XCTAssertNotEqual(CLI.runInProcess(["explain", same]).status, 64)
        XCTAssertEqual(CLI.runInProcess(["triage", same]).out.split(separator: "\n").count, 1)
    }
}
