import Foundation

/// The executables the package builds, found beside the test bundle or in the debug build folder.
package enum Executables {
    /// The path of the built executable `name` (`rtctrace`).
    package static func built(_ name: String) -> String {
        let dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let candidates = [dir.appendingPathComponent(name).path,
                          dir.deletingLastPathComponent().appendingPathComponent(name).path,
                          Fixtures.root + "/.build/debug/" + name]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) } ?? candidates[2]
    }
}

/// What a finished process left: its exit status (or minus the signal that ended it) and output.
package struct ProcessOutput: Sendable {
    /// The exit status, or minus the signal number when a signal ended it.
    package var status: Int32
    /// Everything written to standard output.
    package var out: Data
    /// Everything written to standard error.
    package var err: Data
    /// Whether the run was stopped because it outlived its time limit.
    package var timedOut: Bool
}

/// Runs a program to its end, feeding `stdin` and reading both output pipes at once so that
/// neither fills up. `timeout` is a guard against a program that hangs (it is then terminated and
/// `timedOut` is set); it is never a measure of speed, so give it a wide margin.
package func runProcess(_ exe: String, _ args: [String], env: [String: String?] = [:], cwd: String? = nil,
                       stdin: Data? = nil, timeout: TimeInterval? = nil) -> ProcessOutput {
    final class Box: @unchecked Sendable {
        var data = Data()
        var timedOut = false
        var process: Process?
    }
    let p = Process()
    p.executableURL = URL(fileURLWithPath: exe)
    p.arguments = args
    var environment = ProcessInfo.processInfo.environment
    for (k, v) in env { environment[k] = v }
    p.environment = environment
    if let cwd { p.currentDirectoryURL = URL(fileURLWithPath: cwd) }
    let out = Pipe(), err = Pipe(), inp = Pipe()
    p.standardOutput = out
    p.standardError = err
    p.standardInput = stdin == nil ? FileHandle.nullDevice : inp
    do { try p.run() } catch {
        return ProcessOutput(status: 127, out: Data(), err: Data("cannot start \(exe): \(error)".utf8), timedOut: false)
    }
    let errBox = Box(), watch = Box()
    watch.process = p
    let group = DispatchGroup()
    group.enter()
    DispatchQueue.global().async { errBox.data = err.fileHandleForReading.readDataToEndOfFile(); group.leave() }
    if let stdin {
        let writer = inp.fileHandleForWriting
        DispatchQueue.global().async { writer.write(stdin); try? writer.close() }
    }
    if let timeout {
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout) {
            if let p = watch.process, p.isRunning { watch.timedOut = true; p.terminate() }
        }
    }
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    group.wait()
    p.waitUntilExit()
    watch.process = nil
    let status = p.terminationReason == .uncaughtSignal ? -p.terminationStatus : p.terminationStatus
    return ProcessOutput(status: status, out: outData, err: errBox.data, timedOut: watch.timedOut)
}

/// Runs the built `rtctrace` (or another program) and captures what a user would see.
package enum CLI {
    /// The built `rtctrace`.
    package static var binary: String { Executables.built("rtctrace") }

    /// The package root.
    package static var root: String { Fixtures.root }

    /// A fresh temporary folder.
    package static func tempDir() -> String { Fixtures.tempDir("e2e") }

    /// Exit status and the two output streams as text.
    package struct Result: Sendable {
        /// The exit status (minus the signal number when a signal ended it).
        package var status: Int32
        /// Standard output.
        package var out: String
        /// Standard error.
        package var err: String

        /// The result of a run that ended with `status` after writing `out` and `err`.
        package init(status: Int32, out: String, err: String) {
            self.status = status
            self.out = out
            self.err = err
        }
    }

    /// Runs `rtctrace args` (or `exe args`) outside CI mode, with `env` added to the environment.
    @discardableResult
    package static func run(_ args: [String], env: [String: String] = [:], cwd: String? = nil, stdin: Data? = nil,
                           exe: String? = nil) -> Result {
        var environment: [String: String?] = ["CI": nil]
        for (k, v) in env { environment[k] = v }
        let r = runProcess(exe ?? binary, args, env: environment, cwd: cwd, stdin: stdin)
        return Result(status: r.status, out: String(decoding: r.out, as: UTF8.self), err: String(decoding: r.err, as: UTF8.self))
    }
}

extension CLI {
    /// Runs `rtctrace args` outside CI mode with standard output on `/dev/full`, where every write
    /// fails with "No space left on device"; nil where the system has no `/dev/full`.
    package static func runIntoFullDevice(_ args: [String]) throws -> Result? {
        guard let full = FileHandle(forWritingAtPath: "/dev/full") else { return nil }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: binary)
        p.arguments = args
        var environment = ProcessInfo.processInfo.environment
        environment["CI"] = nil
        p.environment = environment
        let err = Pipe()
        p.standardOutput = full
        p.standardError = err
        p.standardInput = FileHandle.nullDevice
        try p.run()
        let data = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return Result(status: p.terminationStatus, out: "", err: String(decoding: data, as: UTF8.self))
    }
}

extension Fixtures {
    /// Runs a program, returning its exit status and raw output.
    @discardableResult
    package static func run(_ exe: String, _ args: [String], stdin: Data? = nil) -> (status: Int32, out: Data, err: Data) {
        let r = runProcess(exe, args, stdin: stdin)
        return (r.status, r.out, r.err)
    }
}
