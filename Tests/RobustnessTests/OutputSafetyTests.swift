import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Glibc
import XCTest
import Reports
import TraceCodec
import TraceModel

/// Strings from traces are escaped in every renderer, and output files are
/// written atomically, only at the path given.
final class OutputSafetyTests: XCTestCase {
    var dir = ""
    override func setUp() { dir = Support.tempDir() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    static var rtctrace: String { CLI.binary }

    /// Text an attacker would put in a trace: terminal escapes (7-bit and C1), cursor tricks,
    /// bidi overrides, and HTML/XML/JSON breakers.
    static let payload = "\u{1B}]0;owned\u{07}\u{1B}[2J\u{1B}[31mRED\u{9B}31m\r\u{8}\u{7F}\u{202E}evil</script><script>alert(1)</script>\"><img src=x onerror=alert(2)>&amp;]]>\\\"\u{0}"

    /// A trace carrying the payload in every kind of string field and in an unknown type.
    func hostileTrace() throws -> String {
        let p = Self.payload
        let records: [RecordBody] = [
            .header(TraceHeader(layer: .srtc, sdk: p, device: .init(model: p, os: p, simulator: false),
                                app: .init(bundleId: p, micUsageDescription: true, backgroundAudio: true), startedAt: p)),
            .joinChannel(channel: p),
            .deviceConnected(id: p, kind: .bluetooth, name: p, port: p),
            .setRoute(target: .speaker, api: p),
            .routeChanged(route: .bluetooth, previousRoute: .speaker, reason: .newDeviceAvailable),
            .sdkError(api: p, error: p), .sdkLog(level: p, message: p),
            .subscribe(pubUid: p, trackId: p, layers: [p]), .switchLayer(pubUid: p, trackId: p, targetTrackId: p),
            .srvLayerSwitched(LayerSwitch(pubUid: p, trackId: p, toTrackId: p, reason: p)),
            .speakers(speaking: [Speaker(uid: p, trackId: p, level: 0.5)], stopped: []),
            .sessionActivated(SessionActivation(ok: false, error: p, category: p, mode: p, options: [p])),
        ]
        let path = dir + "/hostile.trace.zst"
        let w = try TraceWriter(path: path)
        for (i, b) in records.enumerated() { try w.append(t: Int64(i * 100), b) }
        var json = JSONWriter()
        json.beginObject(); json.key("seq"); json.int(records.count); json.key("t"); json.int(5000)
        json.key("type"); json.string("x." + p); json.key("v"); json.string(p); json.endObject()
        try w.appendLine(json.bytes, t: 5000)
        try w.close()
        return path
    }

    /// Control bytes a terminal would act on: C0 except newline and tab, DEL, and C1 (as UTF-8).
    func assertTerminalSafe(_ s: String, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        for u in s.unicodeScalars {
            let v = u.value
            if (v < 0x20 && v != 0x0A && v != 0x09) || v == 0x7F || (0x80..<0xA0).contains(v) {
                XCTFail("\(what): control character U+\(String(v, radix: 16)) reached the terminal", file: file, line: line)
                return
            }
        }
    }

    func test_terminalOutputOfEveryCommandStripsControlCharacters() throws {
        let trace = try hostileTrace()
        XCTAssertEqual(terminalSafe(Self.payload).unicodeScalars.filter { $0.value < 0x20 || (0x7F..<0xA0).contains($0.value) }.count, 0)
        for args in [["cat", trace], ["info", trace], ["verify", trace], ["replay", trace], ["explain", trace], ["check", trace]] {
            let r = Support.Child(Self.rtctrace, args).wait()
            XCTAssertTrue([0, 1].contains(r.status), "\(args): \(r.status) \(r.err)")
            XCTAssertFalse(r.out.isEmpty && r.err.isEmpty, "\(args) printed nothing")
            if args[0] == "cat" {
                // cat prints lines exactly as recorded (valid JSON, for pipes): C0 controls and ESC
                // are always escaped there; C1 and DEL inside strings are not (see docs/reliability.md).
                XCTAssertFalse(r.out.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, "cat: raw C0 control")
            } else {
                assertTerminalSafe(r.out, "\(args[0]) stdout")
            }
            assertTerminalSafe(r.err, "\(args[0]) stderr")
        }
        // A hostile file name is made safe too.
        let named = dir + "/a\u{1B}[31mb.trace.zst"
        try FileManager.default.copyItem(atPath: trace, toPath: named)
        let r = Support.Child(Self.rtctrace, ["explain", named]).wait()
        assertTerminalSafe(r.out + r.err, "explain with a hostile file name")
    }

    func test_jsonOutputsAreValidAndCarryTheTextExactly() throws {
        let trace = try hostileTrace()
        for args in [["info", trace, "--json"], ["replay", trace, "--json"], ["explain", trace, "--json"], ["verify", trace, "--json"]] {
            let r = Support.Child(Self.rtctrace, args).wait()
            for line in r.out.split(separator: "\n") where args[0] != "explain" || line.hasPrefix("{") {
                XCTAssertNoThrow(try JSONSerialization.jsonObject(with: Data(line.utf8)), "\(args[0]) --json: \(line.prefix(200))")
            }
            if args[0] == "explain" {
                XCTAssertNoThrow(try JSONSerialization.jsonObject(with: Data(r.out.utf8)), "explain --json")
            }
        }
        // The one JSON helper round-trips every character.
        var w = JSONWriter()
        w.beginArray(); w.string(Self.payload); w.endArray()
        let back = try JSONSerialization.jsonObject(with: Data(w.bytes)) as? [String]
        XCTAssertEqual(back, [Self.payload])
        let chrome = dir + "/t.json"
        let e = Support.Child(Self.rtctrace, ["export", trace, "--format", "chrome", "-o", chrome]).wait()
        XCTAssertEqual(e.status, 0, e.err)
        XCTAssertNoThrow(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: chrome))))
    }

    func test_xmlAndHtmlEscapeTraceText() throws {
        let trace = try hostileTrace()
        let junit = dir + "/junit.xml"
        _ = Support.Child(Self.rtctrace, ["check", trace, "--junit", junit]).wait()
        let xml = try Data(contentsOf: URL(fileURLWithPath: junit))
        #if canImport(FoundationXML) || os(macOS)
        let parser = XMLParser(data: xml)
        XCTAssertTrue(parser.parse(), "JUnit XML is not well-formed: \(String(describing: parser.parserError))")
        #endif
        let text = String(decoding: xml, as: UTF8.self)
        XCTAssertFalse(text.contains("<script>"))
        XCTAssertFalse(text.contains("\u{1B}"))
        XCTAssertEqual(JUnitXML.escape("<a href=\"x\">&'</a>\u{1B}"), "&lt;a href=&quot;x&quot;&gt;&amp;&apos;&lt;/a&gt;\u{FFFD}")

        let html = dir + "/report.html"
        let r = Support.Child(Self.rtctrace, ["report", trace, "-o", html]).wait()
        XCTAssertTrue([0, 1].contains(r.status), r.err)
        let page = try String(contentsOfFile: html, encoding: .utf8)
        XCTAssertFalse(page.contains("<script>alert(1)"), "trace text reached the HTML unescaped")
        XCTAssertFalse(page.contains("<img src=x"), "trace text reached the HTML unescaped")
        XCTAssertFalse(page.contains("\u{1B}"))
        XCTAssertTrue(page.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
    }

    func test_outputFilesAreWrittenAtomicallyAndOnlyAtTheGivenPath() throws {
        let out = dir + "/out/r.json"
        try FileManager.default.createDirectory(atPath: dir + "/out", withIntermediateDirectories: true)
        try AtomicFile.write("old", to: out)
        // A symlink planted where a temporary might go is never written through: temporaries are
        // fresh names opened with O_EXCL | O_NOFOLLOW.
        let a = AtomicFile.temporarySibling(of: out), b = AtomicFile.temporarySibling(of: out)
        XCTAssertNotEqual(a, b)
        XCTAssertTrue(a.hasPrefix(dir + "/out/.r.json.tmp-"))
        try AtomicFile.write("new", to: out)
        XCTAssertEqual(try String(contentsOfFile: out, encoding: .utf8), "new")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir + "/out"), ["r.json"], "a temporary was left behind")
        // Failure leaves the old file whole and nothing else: the target is a directory here.
        try FileManager.default.createDirectory(atPath: dir + "/out/d", withIntermediateDirectories: true)
        XCTAssertThrowsError(try AtomicFile.write("x", to: dir + "/out/d"))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir + "/out").sorted(), ["d", "r.json"])
        // A missing folder is an error, not a file somewhere else.
        XCTAssertThrowsError(try AtomicFile.write("x", to: dir + "/missing/r.json"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/missing"))

        // End to end: commands writing files leave exactly the file asked for.
        let trace = try hostileTrace()
        let reports = dir + "/reports"
        try FileManager.default.createDirectory(atPath: reports, withIntermediateDirectories: true)
        for args in [["report", trace, "-o", reports + "/r.html"], ["export", trace, "--format", "chrome", "-o", reports + "/c.json"],
                     ["record", Support.root + "/traces/srtc-cdn-wangsu.jsonl", "-o", reports + "/t.trace.zst"]] {
            let r = Support.Child(Self.rtctrace, args).wait()
            XCTAssertTrue([0, 1].contains(r.status), "\(args[0]): \(r.err)")
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: reports).sorted(), ["c.json", "r.html", "t.trace.zst"])
        let before = try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
        // A folder that cannot be created (a file is in the way): `-o` creates missing folders otherwise.
        let r = Support.Child(Self.rtctrace, ["report", trace, "-o", trace + "/r.html"]).wait()
        XCTAssertNotEqual(r.status, 0)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir).sorted(), before)
    }
}
