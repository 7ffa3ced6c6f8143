import Foundation
import XCTest

/// Runs the built `rtctrace` and captures what a user would see.
enum CLI {
    /// The package root (two levels above this file's folder).
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    /// The `rtctrace` built beside the test bundle.
    static var binary: String {
        let dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for candidate in [dir.appendingPathComponent("rtctrace").path, root + "/.build/debug/rtctrace"]
        where FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        return root + "/.build/debug/rtctrace"
    }

    struct Result {
        var status: Int32
        var out: String
        var err: String
    }

    @discardableResult
    static func run(_ args: [String], env: [String: String] = [:], cwd: String? = nil, stdin: Data? = nil, exe: String? = nil) -> Result {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: exe ?? binary)
        p.arguments = args
        var environment = ProcessInfo.processInfo.environment
        environment["CI"] = nil
        for (k, v) in env { environment[k] = v }
        p.environment = environment
        if let cwd { p.currentDirectoryURL = URL(fileURLWithPath: cwd) }
        let out = Pipe(), err = Pipe(), inp = Pipe()
        p.standardOutput = out
        p.standardError = err
        p.standardInput = stdin == nil ? FileHandle.nullDevice : inp
        try! p.run()
        if let stdin { inp.fileHandleForWriting.write(stdin); try? inp.fileHandleForWriting.close() }
        // Read both pipes concurrently so neither fills up.
        final class Box: @unchecked Sendable { var data = Data() }
        let errBox = Box()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async { errBox.data = err.fileHandleForReading.readDataToEndOfFile(); group.leave() }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        p.waitUntilExit()
        return Result(status: p.terminationStatus, out: String(decoding: outData, as: UTF8.self), err: String(decoding: errBox.data, as: UTF8.self))
    }

    static func tempDir() -> String {
        let dir = NSTemporaryDirectory() + "rtctrace-e2e-\(getpid())-\(UUID().uuidString.prefix(8))"
        try! FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }
}
