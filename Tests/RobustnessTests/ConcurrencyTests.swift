import Foundation
import Glibc
import TestSupport
import TraceCodec
import XCTest

/// Two processes appending to one trace never interleave bytes inside a frame:
/// the writer holds an exclusive advisory lock (flock) and a second writer is refused, by name.
final class ConcurrencyTests: XCTestCase {
    var dir = ""
    override func setUp() { dir = Support.tempDir() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    func test_secondProcessIsRefusedWithClearErrorWhileFirstAppends() throws {
        let path = dir + "/held.trace.zst"
        let holder = Support.harness(["hold", path], stdinPipe: true)
        XCTAssertEqual(holder.readLine(), "ready")
        // Another process is refused…
        let second = Support.harness(["race", path, "b", "5"]).wait()
        XCTAssertEqual(second.status, 3)
        XCTAssertTrue(second.err.contains("another writer is appending to this trace"), second.err)
        // …and so is a writer in this process.
        XCTAssertThrowsError(try TraceWriter(path: path)) { XCTAssertTrue("\($0)".contains("another writer"), "\($0)") }
        // Readers are never blocked by the lock.
        XCTAssertEqual(try Support.readAll(path).records.count, 1)
        XCTAssertEqual(holder.wait().status, 0)
        // Once the first writer has closed, the next one may append.
        XCTAssertEqual(Support.harness(["race", path, "b", "5"]).wait().status, 0)
        let (records, problems) = try Support.readAll(path)
        XCTAssertEqual(problems, [])
        XCTAssertEqual(records.count, 6)
    }

    /// Two processes race to append, again and again, each retrying until it gets the trace:
    /// every frame is intact and each writer's session is one contiguous run of records.
    func test_racingAppendersNeverInterleaveInsideAFrame() throws {
        let path = dir + "/race.trace.zst"
        let rounds = 15, perWriter = 40
        for _ in 0..<rounds {
            let a = Support.harness(["race", path, "a", String(perWriter), "--wait"])
            let b = Support.harness(["race", path, "b", String(perWriter), "--wait"])
            XCTAssertEqual(a.wait().status, 0)
            XCTAssertEqual(b.wait().status, 0)
        }
        let (records, problems) = try Support.readAll(path)
        XCTAssertEqual(problems, [], "interleaved or damaged frames")
        XCTAssertEqual(records.count, rounds * 2 * perWriter)
        XCTAssertEqual(records.map(\.seq), Array(0..<records.count))
        // Sessions alternate at most once per session: writer tags change at most 2·rounds times.
        var switches = 0
        var last = ""
        for r in records {
            guard case .sdkLog(let w, _) = r.body else { continue }
            if w != last { switches += 1; last = w }
        }
        XCTAssertLessThanOrEqual(switches, rounds * 2)
    }
}
