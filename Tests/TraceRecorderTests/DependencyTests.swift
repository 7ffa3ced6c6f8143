import Foundation
import TestSupport
import TraceCodec
import XCTest

/// An SDK takes the recorder as a versioned dependency: a package that depends on this one by a version
/// tag (SwiftPM refuses unsafe build flags anywhere in such a dependency) builds with `import
/// TraceRecorder` alone, and its build holds no reader, decoder or contract catalogue.
final class DependencyTests: XCTestCase {
    func run(_ args: [String], in dir: String, timeout: TimeInterval = 1200) -> (ok: Bool, text: String) {
        let out = runProcess("/usr/bin/env", args, cwd: dir, timeout: timeout)
        let text = String(decoding: out.out + out.err, as: UTF8.self)
        return (out.status == 0 && !out.timedOut, text)
    }

    func test_aPackageDependingOnATaggedVersion_buildsWithImportTraceRecorderAlone() throws {
        let tmp = Fixtures.tempDir("dependency")
        defer { try? FileManager.default.removeItem(atPath: tmp) }
        // The repository as it is now (the files git tracks or would track), committed and tagged.
        let repo = tmp + "/rtctrace"
        try FileManager.default.createDirectory(atPath: repo, withIntermediateDirectories: true)
        let listed = run(["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"], in: Fixtures.root)
        XCTAssertTrue(listed.ok, listed.text)
        for path in listed.text.split(separator: "\0").map(String.init) where FileManager.default.fileExists(atPath: Fixtures.root + "/" + path) {
            let to = repo + "/" + path
            try FileManager.default.createDirectory(atPath: (to as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: Fixtures.root + "/" + path, toPath: to)
        }
        let git = ["git", "-c", "user.name=rtctrace test", "-c", "user.email=test@rtctrace.invalid", "-c", "commit.gpgsign=false", "-c", "tag.gpgsign=false"]
        for step in [["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "the working tree"], ["tag", "1.0.0"]] {
            let r = run(git + step, in: repo)
            XCTAssertTrue(r.ok, "git \(step): \(r.text)")
        }
        // An SDK's package: the product by version, and one file that imports TraceRecorder and nothing else.
        let sdk = tmp + "/sdk"
        try FileManager.default.createDirectory(atPath: sdk + "/Sources/sdk", withIntermediateDirectories: true)
        try """
        // swift-tools-version:6.0
        import PackageDescription

        let package = Package(
            name: "sdk",
            dependencies: [.package(url: "file://\(repo)", from: "1.0.0")],
            targets: [.executableTarget(name: "sdk", dependencies: [.product(name: "TraceRecorder", package: "rtctrace")])]
        )
        """.write(toFile: sdk + "/Package.swift", atomically: true, encoding: .utf8)
        try """
        import TraceRecorder

        var config = RecorderConfiguration(directory: CommandLine.arguments[1], layer: .smeeting, sdk: "SMeeting 3.2.1",
                                           device: .init(model: "iPhone15,2", os: "iOS 17.4"), initialDefaultRoute: .speaker)
        config.privacy = .hashed(salt: TraceRecorder.makeSalt())
        config.compression = CommandLine.arguments[2] == "stored" ? .stored : .automatic
        let recorder = TraceRecorder(config)
        recorder.record(.enterMeeting(room: "Quarterly review"))
        recorder.record(.setRoute(target: .speaker, api: "setAudioRoute(.speaker)"))
        recorder.record(.routeChanged(route: .speaker, previous: .receiver, reason: .override))
        recorder.record(.qualityReport(pub: QualitySample(level: .good), sub: QualitySample(level: .excellent)))
        recorder.record(.log(level: "debug", "jitter \\(12) ms for \\("uid-7")"))
        recorder.record(.custom("sdkState", ["ready": true, "peers": 3]))
        let realtime = recorder.makeRealtimeProducer()
        realtime.record(.sdkInterrupted)
        recorder.record(.exitMeeting)
        precondition(recorder.close(timeout: 60), "the recorder did not close")
        print(TraceRecorder.outbox(in: CommandLine.arguments[1]).joined(separator: "\\n"))
        """.write(toFile: sdk + "/Sources/sdk/main.swift", atomically: true, encoding: .utf8)
        let build = run(["swift", "build", "--package-path", sdk, "--build-path", sdk + "/.build"], in: sdk)
        XCTAssertTrue(build.ok, "the SDK's build failed:\n\(build.text.suffix(4000))")
        guard build.ok else { return }
        // What the device build holds: the recorder, its vocabulary and frames, no codec or contract.
        let modules = (try? FileManager.default.subpathsOfDirectory(atPath: sdk + "/.build")) ?? []
        let built = Set(modules.filter { $0.hasSuffix(".swiftmodule") }.map { ($0 as NSString).lastPathComponent })
        XCTAssertTrue(built.contains("TraceRecorder.swiftmodule"), "\(built.sorted())")
        for absent in ["TraceCodec", "Contract", "Replay", "RouteEngine", "QualityEngine", "Analysis"] {
            XCTAssertFalse(built.contains(absent + ".swiftmodule"), "\(absent) is built for the SDK: \(built.sorted())")
        }
        for compression in ["automatic", "stored"] {
            let traces = tmp + "/traces-" + compression
            let exe = run([sdk + "/.build/debug/sdk", traces, compression], in: sdk, timeout: 120)
            XCTAssertTrue(exe.ok, exe.text)
            let files = exe.text.split(separator: "\n").map(String.init)
            XCTAssertEqual(files.count, 1, exe.text)
            let (records, problems) = try Fixtures.readAll(files[0])
            XCTAssertEqual(problems, [], compression)
            XCTAssertEqual(records.map(\.type), ["trace.header", "api.enterMeeting", "api.setRoute", "obs.routeChanged", "srv.qualityReport",
                                                 "sdk.log", "x.sdkState", "sdk.interrupted", "api.exitMeeting"], compression)
        }
    }
}
