import Foundation
@_spi(FaultInjection) import SystemLayer
import TestSupport
import XCTest

/// The system layer: typed errors naming the call and the path, the one EINTR and short-write
/// rule, locks, file identities, and the fault hook the other robustness tests rely on.
final class SystemLayerTests: XCTestCase {
    var dir = ""
    override func setUp() { dir = Support.tempDir() }
    override func tearDown() {
        SystemFaults.injector = nil
        try? FileManager.default.removeItem(atPath: dir)
    }

    func test_errorsNameTheCallThePathAndTheSystemsReason() {
        XCTAssertThrowsError(try OpenFile(dir + "/missing", .readOnly)) { e in
            guard let e = e as? SystemError else { return XCTFail("\(e)") }
            XCTAssertEqual(e.errno, .noSuchFile)
            XCTAssertEqual(e.description, "\(dir)/missing: open failed: No such file or directory")
        }
        let path = dir + "/a"
        XCTAssertNoThrow(try OpenFile(path, .writeOnly, options: [.create, .exclusive]).close())
        XCTAssertThrowsError(try OpenFile(path, .writeOnly, options: [.create, .exclusive])) { e in
            XCTAssertEqual((e as? SystemError)?.errno, .fileExists)
        }
        try? FileManager.default.createSymbolicLink(atPath: dir + "/link", withDestinationPath: path)
        XCTAssertThrowsError(try OpenFile(dir + "/link", .readOnly, options: [.noFollow])) { e in
            XCTAssertEqual((e as? SystemError)?.errno, .symlinkLoop)
        }
    }

    func test_writeAllCompletesShortWritesAndFailsTheNthWriteWithItsErrno() throws {
        let path = dir + "/w"
        let bytes = [UInt8]((0..<1000).map { UInt8($0 % 251) })
        // Every write takes at most 7 bytes: writeAll still writes everything, in order.
        try SystemFaults.with(FaultInjector(write: { .shortWrite(min($0.count, 7)) })) {
            let f = try OpenFile(path, .writeOnly, options: [.create])
            try f.writeAll(bytes)
            try f.close()
        }
        XCTAssertEqual([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))), bytes)
        // The third write fails: the error is ENOSPC, named with the file.
        let faults = FaultInjector.failingWrite(number: 3)
        XCTAssertThrowsError(try SystemFaults.with(faults) {
            let f = try OpenFile(path, .writeOnly, options: [.truncate])
            for _ in 0..<5 { try f.writeAll([1, 2, 3]) }
        }) { e in
            XCTAssertEqual(e as? SystemError, SystemError(.noSpace, call: "write", path: path))
            XCTAssertEqual("\(e)", "\(path): write failed: No space left on device")
        }
        XCTAssertEqual(faults.writeCount, 3)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)).count, 6)
        // A disk with room for 10 bytes.
        XCTAssertThrowsError(try SystemFaults.with(.diskFull(after: 10)) {
            try OpenFile(path, .writeOnly, options: [.truncate]).writeAll(bytes)
        }) { e in XCTAssertEqual((e as? SystemError)?.errno, .noSpace) }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)).count, 10)
        // fsync faults, and a delay that only slows the write down.
        XCTAssertThrowsError(try SystemFaults.with(.failingSync(number: 1)) { try OpenFile(path, .writeOnly).sync() }) { e in
            XCTAssertEqual(e as? SystemError, SystemError(.ioError, call: "fsync", path: path))
        }
        let start = Clock.monotonicNanoseconds()
        try SystemFaults.with(.delayingWrites(nanoseconds: 20_000_000)) { try OpenFile(path, .writeOnly).writeAll([1]) }
        XCTAssertGreaterThanOrEqual(Clock.monotonicNanoseconds() - start, 20_000_000)
        XCTAssertNil(SystemFaults.injector, "the hook stays installed after the block")
    }

    func test_exclusiveLockIsRefusedWithoutWaitingWhileAnotherOpenFileHoldsIt() throws {
        let path = dir + "/l"
        let a = try OpenFile(path, .readWrite, options: [.create])
        let b = try OpenFile(path, .readOnly)
        XCTAssertTrue(try a.lock(.exclusive))
        XCTAssertFalse(try b.lock(.exclusive))
        XCTAssertFalse(try b.lock(.shared))
        try a.close()
        XCTAssertTrue(try b.lock(.shared))
        let c = try OpenFile(path, .readOnly)
        XCTAssertTrue(try c.lock(.shared), "shared locks coexist")
        XCTAssertNotEqual(a.descriptor, b.descriptor)
    }

    func test_identityTypeAndRealPathSeeThroughLinks() throws {
        let file = dir + "/f"
        try Data("x".utf8).write(to: URL(fileURLWithPath: file))
        try FileManager.default.createSymbolicLink(atPath: dir + "/sym", withDestinationPath: "f")
        try FileManager.default.linkItem(atPath: file, toPath: dir + "/hard")
        let f = try FileSystem.status(file)
        XCTAssertEqual(f.type, .regular)
        XCTAssertEqual(f.size, 1)
        XCTAssertEqual(try FileSystem.status(dir + "/sym").identity, f.identity)
        XCTAssertEqual(try FileSystem.status(dir + "/hard").identity, f.identity)
        XCTAssertEqual(try FileSystem.status(dir + "/sym", followLinks: false).type, .symbolicLink)
        XCTAssertEqual(try FileSystem.realPath(dir + "/./sym"), try FileSystem.realPath(file))
        XCTAssertNil(try FileSystem.statusIfExists(dir + "/none"))
        XCTAssertNil(try FileSystem.statusIfExists(file + "/below-a-file"))
        XCTAssertEqual(try FileSystem.entries(of: dir).sorted(), ["f", "hard", "sym"])
        if FileManager.default.fileExists(atPath: "/dev/null") {
            XCTAssertEqual(try FileSystem.status("/dev/null").type, .characterDevice)
        }
        try FileSystem.makeDirectory(dir + "/d")
        XCTAssertTrue(FileSystem.isDirectory(dir + "/d"))
        try FileSystem.rename(dir + "/hard", to: dir + "/d/moved")
        try FileSystem.remove(dir + "/d/moved")
        XCTAssertFalse(FileSystem.exists(dir + "/d/moved"))
    }

    func test_lockSerialisesThreads() {
        final class Counter: @unchecked Sendable {
            let lock = Lock()
            var value = 0
        }
        let c = Counter()
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<10_000 { c.lock.withLock { c.value += 1 } }
        }
        XCTAssertEqual(c.value, 80_000)
        XCTAssertGreaterThan(CurrentProcess.activeProcessorCount, 0)
        XCTAssertEqual(CurrentProcess.id, ProcessInfo.processInfo.processIdentifier)
    }
}

/// File names that are not UTF-8 keep their bytes through a `String` and back (`PathName`).
final class PathNameTests: XCTestCase {
    func test_everyByteSequenceRoundTripsAndValidUTF8IsItself() {
        let cases: [[UInt8]] = [Array("café.jsonl".utf8), [0x63, 0x61, 0x66, 0xE9], [0xFF, 0xFE, 0x2F], [0xED, 0xA0, 0x80],
                                [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82], [0xC0, 0xAF], Array("a".utf8) + [0x80] + Array("😀".utf8)]
        for bytes in cases {
            let name = PathName.decode(bytes)
            XCTAssertEqual(PathName.bytes(name), bytes, "\(bytes)")
            PathName.withCString(name) { c in XCTAssertEqual(Array(UnsafeBufferPointer(start: UnsafeRawPointer(c).assumingMemoryBound(to: UInt8.self), count: strlen(c))), bytes) }
        }
        XCTAssertEqual(PathName.decode(Array("café.jsonl".utf8)), "café.jsonl")
        XCTAssertEqual(PathName.displayed(PathName.decode([0x63, 0x61, 0x66, 0xE9])), "caf\\xE9")
        XCTAssertEqual(PathName.displayed(PathName.decode([0xE2, 0x82, 0x41])), "\\xE2\\x82A")
        var random = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let bytes = (0..<Int.random(in: 1...12, using: &random)).map { _ in UInt8.random(in: 1...255, using: &random) }
            XCTAssertEqual(PathName.bytes(PathName.decode(bytes)), bytes, "\(bytes)")
        }
    }
}
