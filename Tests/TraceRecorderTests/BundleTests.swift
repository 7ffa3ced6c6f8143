import Foundation
@_spi(FaultInjection) import SystemLayer
import TestSupport
import TraceCodec
import TraceFrames
import TraceModel
@testable import TraceRecorder
import XCTest

/// Tickets and bundles: a report marked in the session, and one file holding the session around it.
final class BundleTests: XCTestCase {
    var dir = ""
    override func setUp() { dir = Support.tempDir() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    /// A call recorded over three parts with a report marked in it, then exported.
    func recordReportedCall(_ clock: ManualClock, _ adjust: (inout RecorderConfiguration) -> Void = { _ in }) throws -> (TraceRecorder, URL) {
        var c = Support.configuration(dir, layer: .smeeting, clock: clock)
        c.sessionId = "ticket"
        c.files.maxFileBytes = 2048
        adjust(&c)
        let r = TraceRecorder(c)
        r.record(.enterMeeting(room: "r", uid: "me"))
        for i in 0..<60 {
            r.record(.sdkLog(level: "debug", message: "rtp stats \(i) " + String(repeating: "x", count: 40)))
            clock.advance(milliseconds: 500)
            // Parts of the session before the report (a "send diagnostics" earlier in the call, say).
            if i == 19 || i == 39 {
                r.rotateNow()
                XCTAssertTrue(r.waitUntilWriterIdle())
            }
        }
        XCTAssertEqual(r.markReport(id: "R-2041", note: "no sound after the car"), r.sessionId)
        r.record(.exitMeeting)
        let url = try r.exportBundle()
        return (r, url)
    }

    func test_markReport_writesTheMarkAndRotates_exportBundleWritesOneFileWithItsManifest() throws {
        let clock = ManualClock()
        let (r, url) = try recordReportedCall(clock)
        XCTAssertTrue(url.path.hasPrefix(dir + "/bundles/ticket-"), url.path)
        XCTAssertTrue(url.path.hasSuffix(".rtcbundle"))
        XCTAssertTrue(r.close(timeout: 20))
        // One file: a ustar archive whose first member is the manifest; the parts as the folder holds them.
        guard let bundle = TraceBundle.open(url.path) else { return XCTFail("not read back as a bundle") }
        XCTAssertEqual(bundle.problems, [])
        XCTAssertEqual(bundle.members.first?.name, BundleManifest.fileName)
        let manifest = try XCTUnwrap(bundle.manifest)
        XCTAssertEqual(manifest.session, "ticket")
        XCTAssertEqual(manifest.reportIds, ["R-2041"])
        XCTAssertEqual(manifest.recorderVersion, rtctraceVersion)
        let outbox = Support.traceFiles(dir).filter { $0.hasPrefix("outbox/") }.map { String($0.dropFirst(7)) }
        XCTAssertEqual(manifest.parts.map(\.name), outbox, "every closed part of the session, in part order")
        XCTAssertGreaterThan(manifest.parts.count, 2)
        for p in manifest.parts {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: dir + "/outbox/" + p.name))
            XCTAssertEqual(p.size, bytes.count)
            XCTAssertEqual(p.sha256, SHA256.hex(SHA256.hash(Array(bytes))))
        }
        // The part holding the mark was closed into the bundle: read through the bundle, it is there.
        let records = try Support.joinParts(bundle.parts)
        XCTAssertTrue(records.contains { $0.body == .report(id: "R-2041", note: "no sound after the car") })
    }

    func test_theBundle_isListedByTar_andItsPartsReadWithZstd() throws {
        let clock = ManualClock()
        let (r, url) = try recordReportedCall(clock)
        XCTAssertTrue(r.close(timeout: 20))
        let tar = run("/usr/bin/env", ["tar", "-tf", url.path])
        XCTAssertEqual(tar.status, 0, tar.err)
        let names = tar.out.split(separator: "\n").map(String.init)
        XCTAssertEqual(names.first, "manifest.json")
        XCTAssertTrue(names.dropFirst().allSatisfy { $0.hasSuffix(".trace.zst") }, "\(names)")
        let unpacked = dir + "/unpacked"
        try FileManager.default.createDirectory(atPath: unpacked, withIntermediateDirectories: true)
        XCTAssertEqual(run("/usr/bin/env", ["tar", "-xf", url.path, "-C", unpacked]).status, 0)
        for name in names.dropFirst() {
            let z = run("/usr/bin/env", ["zstd", "-dc", unpacked + "/" + name])
            XCTAssertEqual(z.status, 0, "\(name): \(z.err)")
            XCTAssertTrue(z.out.hasPrefix("{\"seq\":"), name)
        }
    }

    func test_lastMinutes_keepsThePartsThatCoverThem() throws {
        let clock = ManualClock()
        let (r, all) = try recordReportedCall(clock)
        XCTAssertTrue(r.close(timeout: 20))
        clock.advance(milliseconds: 1000)
        let whole = try XCTUnwrap(TraceBundle.open(all.path)?.manifest?.parts.count)
        let recent = try r.exportBundle(session: "ticket", lastMinutes: 0.1)
        let parts = try XCTUnwrap(TraceBundle.open(recent.path)?.manifest?.parts)
        XCTAssertLessThan(parts.count, whole)
        XCTAssertGreaterThanOrEqual(parts.count, 1)
        XCTAssertEqual(parts.last?.name, TraceBundle.open(all.path)?.manifest?.parts.last?.name, "the last part is always in")
        XCTAssertThrowsError(try r.exportBundle(session: "no-such-session")) { error in
            XCTAssertTrue("\(error)".contains("no closed part of session no-such-session"), "\(error)")
        }
    }

    func test_aDamagedBundle_saysWhichPart() throws {
        let clock = ManualClock()
        let (r, url) = try recordReportedCall(clock)
        XCTAssertTrue(r.close(timeout: 20))
        var bytes = Array(try Data(contentsOf: url))
        guard let b = TraceBundle.open(url.path), let second = b.members.dropFirst(2).first else { return XCTFail() }
        // A bit flipped in the middle of a part.
        bytes[Int(second.offset) + second.size / 2] ^= 0x40
        let damaged = dir + "/damaged.rtcbundle"
        try Data(bytes).write(to: URL(fileURLWithPath: damaged))
        let d = try XCTUnwrap(TraceBundle.open(damaged))
        XCTAssertEqual(d.problems.count, 1, "\(d.problems)")
        XCTAssertTrue(d.problems[0].hasPrefix("part \(second.name) fails its checksum"), d.problems[0])
        let read = try Support.read(damaged + "/" + second.name)
        XCTAssertTrue(read.problems.contains { $0.kind == .bundleMismatch }, "\(read.problems)")
    }

    func run(_ tool: String, _ args: [String]) -> (status: Int32, out: String, err: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: tool)
        p.arguments = args
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        do { try p.run() } catch { return (-1, "", "\(error)") }
        let o = out.fileHandleForReading.readDataToEndOfFile(), e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: o, as: UTF8.self), String(decoding: e, as: UTF8.self))
    }
}

/// The bundle in the tool's hands: `info`, `explain` and `triage` read it as the session it holds and
/// show the report; `verify` checks its manifest and every part; a damaged bundle is said.
final class BundleCommandTests: XCTestCase {
    var dir = ""
    override func setUp() { dir = Support.tempDir() }
    override func tearDown() {
        SystemFaults.injector = nil
        try? FileManager.default.removeItem(atPath: dir)
    }

    func test_rtctraceReadsABundleWhereverItReadsASession() throws {
        // A call with the volume locked for a while in the middle, and the user's report at its end.
        let device = DeviceStateTests.Device()
        SystemFaults.injector = device.injector
        let clock = ManualClock()
        var c = Support.configuration(dir, layer: .smeeting, clock: clock)
        c.sessionId = "ticket"
        let r = TraceRecorder(c)
        r.record(.enterMeeting(room: "r"))
        for i in 0..<40 {
            if i == 10 {
                XCTAssertTrue(r.flush(timeout: 20))
                device.failing = .notPermitted
                r.record(.sdkLog(level: "debug", message: "as the screen locks"))
                _ = r.flush(timeout: 20)
                XCTAssertTrue(Support.eventually { !r.isRecording })
            }
            if i == 20 {
                device.failing = nil
                clock.advance(milliseconds: 1000)
                XCTAssertTrue(r.waitUntilWriterIdle())
                XCTAssertTrue(Support.eventually { r.isRecording })
            }
            r.record(.sdkLog(level: "debug", message: "line \(i)"))
            clock.advance(milliseconds: 250)
        }
        r.markReport(id: "R-2041", note: "no sound")
        r.record(.exitMeeting)
        let bundle = try r.exportBundle().path
        XCTAssertTrue(r.close(timeout: 20))

        let info = CLI.run(["info", bundle])
        if ProcessInfo.processInfo.environment["SHOW"] != nil { print(info.out, CLI.run(["explain", bundle]).out, CLI.run(["verify", bundle]).out, CLI.run(["triage", bundle]).out) }
        XCTAssertEqual(info.status, 0, info.err)
        XCTAssertTrue(info.out.contains("report    R-2041 at "), info.out)
        XCTAssertTrue(info.out.contains("lost      nothing recorded (the volume was locked"), info.out)
        XCTAssertTrue(info.out.contains("trace     \(bundle)/"), "each part named inside the bundle: \(info.out)")

        let explain = CLI.run(["explain", bundle])
        XCTAssertLessThanOrEqual(explain.status, 1, explain.err)
        XCTAssertTrue(explain.out.contains("  report    R-2041 at "), explain.out)
        XCTAssertTrue(explain.out.contains("the recorder recorded nothing from"), explain.out)
        XCTAssertFalse(explain.out.contains("Nothing is wrong"), explain.out)

        let triage = CLI.run(["triage", bundle])
        XCTAssertEqual(triage.status, 0, triage.err)
        let rows = triage.out.split(separator: "\n")
        XCTAssertEqual(rows.count, 1, triage.out)
        let row = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(rows[0].utf8)) as? [String: Any])
        XCTAssertEqual(row["reportIds"] as? [String], ["R-2041"])
        XCTAssertEqual(row["session"] as? String, "ticket")
        XCTAssertEqual(row["recorderPauses"] as? Int, 1)
        XCTAssertEqual(row["partCount"] as? Int, TraceBundle.open(bundle)?.parts.count)
        XCTAssertTrue((row["tags"] as? [String] ?? []).contains("recorder-dropped-records"), "\(row["tags"] ?? "")")

        let verify = CLI.run(["verify", bundle])
        XCTAssertEqual(verify.status, 0, verify.out + verify.err)
        XCTAssertTrue(verify.out.hasPrefix("\(bundle): OK (bundle of session ticket, "), verify.out)

        // A bit flipped in a part: verify fails naming the part; info says it too, and reads the rest.
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: bundle)))
        let part = try XCTUnwrap(TraceBundle.open(bundle)?.members.last)
        bytes[Int(part.offset) + part.size / 2] ^= 0x01
        let damaged = dir + "/damaged.rtcbundle"
        try Data(bytes).write(to: URL(fileURLWithPath: damaged))
        let bad = CLI.run(["verify", damaged])
        XCTAssertEqual(bad.status, 1, bad.out)
        XCTAssertTrue(bad.out.contains("\(damaged): DAMAGED: part \(part.name) fails its checksum"), bad.out)
        let badInfo = CLI.run(["info", damaged])
        XCTAssertTrue(badInfo.err.contains("warning: \(damaged): part \(part.name) fails its checksum"), badInfo.err)
    }
}
