// swift-tools-version:6.0
import PackageDescription

/// Release builds skip dynamic exclusivity checks in the hot modules: every access to a class's
/// stored property is otherwise checked at run time, which costs ~5% of a replay. Debug builds
/// (and so every test run) keep the checks.
let hotPath: [SwiftSetting] = [.unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))]

let package = Package(
    name: "rtctrace",
    products: [
        .executable(name: "rtctrace", targets: ["rtctrace"]),
        .library(name: "TraceFormat", targets: ["TraceFormat"]),
        .library(name: "RouteEngine", targets: ["RouteEngine"]),
        .library(name: "QualityEngine", targets: ["QualityEngine"]),
        .library(name: "Replay", targets: ["Replay"]),
        .library(name: "Reports", targets: ["Reports"]),
        .library(name: "TraceTools", targets: ["TraceTools"]),
        .library(name: "TraceRecorder", targets: ["TraceRecorder"]),
    ],
    targets: [
        .systemLibrary(
            name: "CZstd",
            pkgConfig: "libzstd",
            providers: [.apt(["libzstd-dev"])]
        ),
        .target(name: "SystemLayer"),
        .target(name: "TraceFormat", dependencies: ["CZstd", "SystemLayer"], swiftSettings: hotPath),
        .target(name: "SeededRandom"),
        .target(name: "RouteEngine", dependencies: ["TraceFormat"], swiftSettings: hotPath),
        .target(name: "QualityEngine", dependencies: ["TraceFormat"], swiftSettings: hotPath),
        .target(name: "Replay", dependencies: ["TraceFormat", "RouteEngine", "QualityEngine"], swiftSettings: hotPath),
        .target(name: "Reports", dependencies: ["TraceFormat", "RouteEngine", "QualityEngine", "Replay"]),
        .target(name: "TraceTools", dependencies: ["SystemLayer", "TraceFormat", "Replay", "Reports"]),
        .target(name: "TraceRecorder", dependencies: ["SystemLayer", "TraceFormat"]),
        .target(name: "RecorderSimulation", dependencies: ["TraceRecorder", "TraceFormat", "SeededRandom"]),
        .executableTarget(name: "rtctrace-recorder-sim", dependencies: ["RecorderSimulation", "TraceRecorder", "TraceFormat"]),
        .executableTarget(name: "rtctrace", dependencies: ["SystemLayer", "TraceFormat", "QualityEngine", "Replay", "Reports", "TraceTools"]),
        .executableTarget(name: "rtctrace-bench", dependencies: ["SystemLayer", "TraceFormat", "TraceRecorder", "RecorderSimulation", "SeededRandom"]),
        .executableTarget(name: "rtctrace-harness", dependencies: ["SystemLayer", "TraceFormat"]),
        // What every test target shares: the process runners, temp folders, fixtures, trace loading,
        // the trace builder and the one TestStore both engines are tested through.
        .target(name: "TestSupport", dependencies: ["TraceFormat", "RouteEngine", "QualityEngine", "Replay"],
                path: "Tests/TestSupport"),
        .testTarget(name: "TraceFormatTests", dependencies: ["TraceFormat", "SeededRandom", "TestSupport"]),
        .testTarget(name: "RouteEngineTests", dependencies: ["RouteEngine", "TraceFormat", "SeededRandom", "TestSupport"]),
        .testTarget(name: "QualityEngineTests", dependencies: ["QualityEngine", "TraceFormat", "SeededRandom", "TestSupport"]),
        .testTarget(name: "ReplayTests", dependencies: ["Replay", "Reports", "TraceFormat", "RouteEngine", "QualityEngine", "TestSupport"]),
        .testTarget(name: "ReportsTests", dependencies: ["Reports", "Replay", "TraceFormat", "TraceTools", "TestSupport"]),
        .testTarget(name: "EndToEndTests", dependencies: ["TraceFormat", "TestSupport"]),
        .testTarget(name: "TraceRecorderTests", dependencies: ["SystemLayer", "TraceRecorder", "RecorderSimulation", "TraceFormat", "Replay", "TestSupport"]),
        .testTarget(name: "RobustnessTests", dependencies: ["SystemLayer", "TraceFormat", "Replay", "Reports", "TraceTools", "TestSupport"]),
    ]
)
