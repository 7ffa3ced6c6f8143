import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A part of the test bundle that runs as its own process: a test starts the test executable again
/// with one test selected, the role's *entry* test, and that test runs the role instead of testing.
/// So helper programs the tests kill, race or measure (the writer harness) are test code, and
/// `swift build` builds none of them.
///
/// How a child starts and talks:
///
/// 1. `TestChild.start(role, args)` runs the test executable (Linux: `/proc/self/exe`, the
///    `.xctest` program; macOS: the `xctest` tool with the bundle) selecting `role.entry`
///    (`Module.Class/testMethod`), with the role's name and arguments in the environment.
/// 2. The entry test calls `TestChild.runIfAsked(roles)` first. In a child it flushes what XCTest
///    has printed so far ("Test Case … started"), writes `marker` on standard output and standard
///    error, runs the role and ends the process with the role's status: XCTest never resumes, so
///    nothing is printed after the role's own output.
/// 3. The parent's `Child` drops everything up to and including the marker on both streams, so a
///    test reads only what the role wrote. Outside a child, `runIfAsked` returns false and the
///    entry test goes on to test something real (it must not be empty).
///
/// To add a role: a `TestChildRole` naming its entry test, and an entry test in any test target
/// that passes the role to `runIfAsked` (all test targets are linked into one test executable).
package enum TestChild {
    /// The environment variable naming the role a child runs.
    package static let roleVariable = "RTCTRACE_TEST_CHILD_ROLE"
    /// The environment variable holding the role's arguments (a JSON array of strings).
    package static let argumentsVariable = "RTCTRACE_TEST_CHILD_ARGUMENTS"
    /// The line a child writes on both streams before its role's own output.
    package static let marker = "\u{1E}rtctrace test child output\u{1E}"

    /// Whether this process is a child started by `start`.
    package static var isChild: Bool { ProcessInfo.processInfo.environment[roleVariable] != nil }

    /// Starts `role` with `arguments` in a new process; with `stdinPipe` the child reads what the
    /// test sends until `wait` closes it.
    package static func start(_ role: TestChildRole, _ arguments: [String], stdinPipe: Bool = false) -> Child {
        let json = String(decoding: try! JSONEncoder().encode(arguments), as: UTF8.self)
        let (exe, args) = command(entry: role.entry)
        return Child(exe, args, stdinPipe: stdinPipe,
                     environment: [roleVariable: role.name, argumentsVariable: json], skippingTo: marker)
    }

    /// The program and arguments that run the test executable with only `entry` selected.
    static func command(entry: String) -> (String, [String]) {
        #if os(macOS)
        let bundle = Bundle.allBundles.first { $0.bundlePath.hasSuffix(".xctest") }?.bundlePath ?? ""
        let tool = CommandLine.arguments[0]
        if URL(fileURLWithPath: tool).lastPathComponent == "xctest" { return (tool, ["-XCTest", entry, bundle]) }
        return ("/usr/bin/xcrun", ["xctest", "-XCTest", entry, bundle])
        #else
        let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return (exe, [entry])
        #endif
    }

    /// In a child asked to run one of `roles`: runs it and ends the process with its status (never
    /// returns). Otherwise returns false at once.
    package static func runIfAsked(_ roles: [TestChildRole]) -> Bool {
        let env = ProcessInfo.processInfo.environment
        guard let name = env[roleVariable] else { return false }
        // XCTest's own lines go out first, then the marker: the parent drops both.
        fflush(nil)
        write(marker + "\n", to: 1)
        write(marker + "\n", to: 2)
        guard let role = roles.first(where: { $0.name == name }) else {
            write("Error: no test child role '\(name)' at this entry (roles: \(roles.map(\.name).joined(separator: ", ")))\n", to: 2)
            _exit(64)
        }
        let json = Data((env[argumentsVariable] ?? "[]").utf8)
        guard let arguments = try? JSONDecoder().decode([String].self, from: json) else {
            write("Error: \(argumentsVariable) is not a JSON array of strings\n", to: 2)
            _exit(64)
        }
        let status = role.run(arguments)
        _exit(status)
    }

    /// Writes `text` straight to descriptor `fd` (no buffer that a kill could lose).
    package static func write(_ text: String, to fd: Int32) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let n = bytes.withUnsafeBytes { p in
                #if canImport(Glibc)
                Glibc.write(fd, p.baseAddress, p.count)
                #else
                Darwin.write(fd, p.baseAddress, p.count)
                #endif
            }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return }
            bytes = bytes.dropFirst(n)
        }
    }
}

/// One thing a test child can be: its name, the entry test that runs it, and what it does with its
/// arguments (the status it returns is the child's exit status).
package struct TestChildRole: Sendable {
    /// The name the parent asks for.
    package let name: String
    /// The XCTest id of the test method that runs the role in a child, `Module.Class/testMethod`.
    package let entry: String
    /// The role's work; its result is the exit status.
    package let run: @Sendable ([String]) -> Int32

    /// Declares a role.
    package init(name: String, entry: String, run: @escaping @Sendable ([String]) -> Int32) {
        self.name = name
        self.entry = entry
        self.run = run
    }
}
