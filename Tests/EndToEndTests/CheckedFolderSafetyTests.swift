import Foundation
import TestSupport
import XCTest

/// Inside a checked folder, only regular files whose real path is inside it are read, printed,
/// renamed or deleted; and CI, however it is spelled, never writes snapshots.
final class CheckedFolderSafetyTests: XCTestCase {
    var dir = ""
    override func setUp() { dir = CLI.tempDir() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    let fm = FileManager.default
    let secret = "SECRET-OUTSIDE-THE-TREE"

    func copy(_ golden: String, to name: String) throws -> String {
        let dst = dir + "/" + name
        try fm.copyItem(atPath: CLI.root + "/traces/" + golden, toPath: dst)
        return dst
    }

    /// (e) A snapshot that links out of the folder (here to a file holding a secret; it was
    /// `/etc/passwd` in the report) is never read: not in the diff, not in the JUnit XML.
    func test_snapshotLinkingOutOfTheFolderIsNeverRead() throws {
        try fm.createDirectory(atPath: dir + "/tree", withIntermediateDirectories: true)
        try fm.createDirectory(atPath: dir + "/outside", withIntermediateDirectories: true)
        try Data((secret + "\nroot:x:0:0:root:/root:/bin/sh\n").utf8).write(to: URL(fileURLWithPath: dir + "/outside/passwd"))
        _ = try copy("srtc-bluetooth-blocks-speaker.jsonl", to: "tree/x.jsonl")
        try fm.createSymbolicLink(atPath: dir + "/tree/x.golden.json", withDestinationPath: dir + "/outside/passwd")
        let junit = dir + "/junit.xml"
        for args in [["check", dir + "/tree", "--junit", junit], ["check", dir + "/tree/x.jsonl", "--junit", junit]] {
            let r = CLI.runInProcess(args)
            XCTAssertEqual(r.status, 1, r.err)
            XCTAssertFalse((r.out + r.err).contains(secret), "\(args): the linked file was printed")
            XCTAssertFalse(String(decoding: fm.contents(atPath: junit) ?? Data(), as: UTF8.self).contains(secret), "\(args): in the JUnit XML")
            XCTAssertTrue(r.out.contains("\(dir)/tree/x.golden.json: not read: leads outside"), r.out)
        }
        // A link to a snapshot inside the folder is fine.
        try fm.removeItem(atPath: dir + "/tree/x.golden.json")
        XCTAssertEqual(CLI.runInProcess(["check", dir + "/tree", "--update"]).status, 0)
        XCTAssertEqual(CLI.runInProcess(["accept", dir + "/tree"]).status, 0)
        try fm.moveItem(atPath: dir + "/tree/x.golden.json", toPath: dir + "/tree/real.json")
        try fm.createSymbolicLink(atPath: dir + "/tree/x.golden.json", withDestinationPath: "real.json")
        XCTAssertEqual(CLI.runInProcess(["check", dir + "/tree"]).status, 0)
    }

    /// A snapshot hard-linked to a file outside the folder (one identity, device and inode, with a name
    /// outside) is never read: it was read and printed in the diff. A snapshot with one name is read.
    func test_snapshotHardLinkedToAFileOutsideIsNeverRead() throws {
        try fm.createDirectory(atPath: dir + "/tree", withIntermediateDirectories: true)
        try fm.createDirectory(atPath: dir + "/outside", withIntermediateDirectories: true)
        try Data((secret + "\nroot:x:0:0:root:/root:/bin/sh\n").utf8).write(to: URL(fileURLWithPath: dir + "/outside/passwd"))
        _ = try copy("srtc-bluetooth-blocks-speaker.jsonl", to: "tree/x.jsonl")
        XCTAssertEqual(link(dir + "/outside/passwd", dir + "/tree/x.golden.json"), 0)
        let junit = dir + "/junit.xml"
        for args in [["check", dir + "/tree", "--junit", junit], ["check", dir + "/tree/x.jsonl", "--junit", junit]] {
            let r = CLI.runInProcess(args)
            XCTAssertEqual(r.status, 1, r.err)
            XCTAssertFalse((r.out + r.err).contains(secret), "\(args): the hard-linked file was printed")
            XCTAssertFalse(String(decoding: fm.contents(atPath: junit) ?? Data(), as: UTF8.self).contains(secret), "\(args): in the JUnit XML")
            XCTAssertTrue(r.out.contains("\(dir)/tree/x.golden.json: not read: has 2 names (hard links; device "), r.out)
        }
        try fm.removeItem(atPath: dir + "/outside/passwd")
        try fm.removeItem(atPath: dir + "/tree/x.golden.json")
        _ = try copy("srtc-bluetooth-blocks-speaker.golden.json", to: "tree/x.golden.json")
        XCTAssertEqual(CLI.runInProcess(["check", dir + "/tree"]).status, 0)
    }

    /// (e) A linked folder must not let reject, accept or `check --unreferenced delete` delete or
    /// rename files outside the folder given.
    func test_linkedFolderDoesNotLetReviewsTouchFilesOutside() throws {
        try fm.createDirectory(atPath: dir + "/tree", withIntermediateDirectories: true)
        try fm.createDirectory(atPath: dir + "/outside", withIntermediateDirectories: true)
        _ = try copy("srtc-bluetooth-blocks-speaker.jsonl", to: "tree/x.jsonl")
        _ = try copy("srtc-cdn-wangsu.jsonl", to: "outside/o.jsonl")
        for name in ["o.golden.json.new", "stray.golden.json"] {
            try Data(secret.utf8).write(to: URL(fileURLWithPath: dir + "/outside/" + name))
        }
        try fm.createSymbolicLink(atPath: dir + "/tree/linked", withDestinationPath: "../outside")
        try fm.createSymbolicLink(atPath: dir + "/tree/y.golden.json.new", withDestinationPath: "../outside/o.golden.json.new")
        let outside = try fm.contentsOfDirectory(atPath: dir + "/outside").sorted()
        XCTAssertEqual(CLI.runInProcess(["reject", dir + "/tree"]).status, 0)
        XCTAssertEqual(CLI.runInProcess(["reject", dir + "/tree/y.golden.json.new"]).status, 0)
        XCTAssertEqual(CLI.runInProcess(["accept", dir + "/tree"]).status, 0)
        XCTAssertEqual(CLI.runInProcess(["check", dir + "/tree", "--unreferenced", "delete"]).status, 0)
        XCTAssertEqual(try fm.contentsOfDirectory(atPath: dir + "/outside").sorted(), outside)
        for name in ["o.golden.json.new", "stray.golden.json"] {
            XCTAssertEqual(fm.contents(atPath: dir + "/outside/" + name), Data(secret.utf8))
        }
        XCTAssertEqual(try fm.destinationOfSymbolicLink(atPath: dir + "/tree/y.golden.json.new"), "../outside/o.golden.json.new")
        XCTAssertFalse(fm.fileExists(atPath: dir + "/tree/y.golden.json"), "a link was accepted as a snapshot")
    }

    /// (f) Any non-empty CI other than `false` or `0` is CI: `--update` writes nothing, `accept`
    /// and `reject` refuse, `--unreferenced delete` deletes nothing. Before, only `CI=true` did.
    func test_anyCIValueButFalseOrZeroMeansCI() throws {
        let trace = try copy("srtc-bluetooth-blocks-speaker.jsonl", to: "t.jsonl")
        let new = dir + "/t.golden.json.new"
        for value in ["true", "1", "True", "TRUE", "yes", "on", "github"] {
            let r = CLI.runInProcess(["check", trace, "--update"], env: ["CI": value])
            XCTAssertEqual(r.status, 0, r.err)
            XCTAssertFalse(fm.fileExists(atPath: new), "CI=\(value): --update wrote a snapshot")
            XCTAssertEqual(r.err, "CI=\(value): --update writes nothing under CI\n")
        }
        for value in ["", "false", "0", "False"] {
            XCTAssertEqual(CLI.runInProcess(["check", trace, "--update"], env: ["CI": value]).status, 0)
            XCTAssertTrue(fm.fileExists(atPath: new), "CI=\(value) is not CI: --update must write")
            for value in ["1", "yes"] {
                let r = CLI.runInProcess(["accept", dir], env: ["CI": value])
                XCTAssertEqual(r.status, 1)
                XCTAssertEqual(r.err, "Error: CI=\(value): snapshots are never written in CI\n")
                XCTAssertEqual(CLI.runInProcess(["reject", dir], env: ["CI": value]).status, 1)
            }
            XCTAssertTrue(fm.fileExists(atPath: new))
            XCTAssertEqual(CLI.runInProcess(["reject", dir], env: ["CI": value]).status, 0)
            XCTAssertFalse(fm.fileExists(atPath: new))
        }
        try Data("{}".utf8).write(to: URL(fileURLWithPath: dir + "/gone.golden.json"))
        XCTAssertEqual(CLI.runInProcess(["check", dir, "--unreferenced", "delete"], env: ["CI": "1"]).status, 0)
        XCTAssertTrue(fm.fileExists(atPath: dir + "/gone.golden.json"))
        XCTAssertEqual(CLI.runInProcess(["check", dir, "--unreferenced", "delete"], env: ["CI": "0"]).status, 0)
        XCTAssertFalse(fm.fileExists(atPath: dir + "/gone.golden.json"))
    }
}
