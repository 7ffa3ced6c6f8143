// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "rtctrace",
    products: [
        .executable(name: "rtctrace", targets: ["rtctrace"]),
        .library(name: "TraceModel", targets: ["TraceModel"]),
        .library(name: "TraceCodec", targets: ["TraceCodec"]),
        .library(name: "Contract", targets: ["Contract"]),
        .library(name: "RouteEngine", targets: ["RouteEngine"]),
        .library(name: "QualityEngine", targets: ["QualityEngine"]),
        .library(name: "Replay", targets: ["Replay"]),
        .library(name: "Analysis", targets: ["Analysis"]),
        .library(name: "Reports", targets: ["Reports"]),
        .library(name: "TraceRecorder", targets: ["TraceRecorder"]),
        .library(name: "CommandLineKit", targets: ["CommandLineKit"]),
        .library(name: "SystemLayer", targets: ["SystemLayer"]),
        .library(name: "TraceFixtures", targets: ["TraceFixtures"]),
    ],
    targets: [
        .systemLibrary(
            name: "CZstd",
            pkgConfig: "libzstd",
            providers: [.apt(["libzstd-dev"])]
        ),
        .target(name: "SystemLayer"),
        .target(name: "TraceModel"),
        .target(name: "TraceCodec", dependencies: ["CZstd", "SystemLayer", "TraceModel"]),
        .target(name: "Contract", dependencies: ["TraceModel"]),
        .target(name: "TraceFixtures", dependencies: ["TraceModel"]),
        .target(name: "RouteEngine", dependencies: ["TraceModel", "Contract"]),
        .target(name: "QualityEngine", dependencies: ["TraceModel", "Contract"]),
        .target(name: "Replay", dependencies: ["SystemLayer", "TraceModel", "TraceCodec", "Contract", "RouteEngine", "QualityEngine"]),
        .target(name: "Analysis", dependencies: ["SystemLayer", "TraceModel", "TraceCodec", "Contract", "RouteEngine", "QualityEngine", "Replay"]),
        .target(name: "Reports", dependencies: ["TraceModel", "TraceCodec", "Contract", "RouteEngine", "QualityEngine", "Replay", "Analysis"]),
        .target(name: "CommandLineKit", dependencies: ["SystemLayer", "TraceModel", "TraceCodec", "Contract", "QualityEngine", "Replay", "Analysis", "Reports"]),
        .target(name: "TraceRecorder", dependencies: ["SystemLayer", "TraceModel", "TraceCodec"]),
        .target(name: "RecorderSimulation", dependencies: ["TraceRecorder", "TraceModel", "TraceCodec", "Contract", "TraceFixtures"]),
        .executableTarget(name: "rtctrace-recorder-sim", dependencies: ["RecorderSimulation", "TraceRecorder", "TraceModel", "TraceCodec"]),
        .executableTarget(name: "rtctrace", dependencies: ["SystemLayer", "TraceModel", "TraceCodec", "Contract", "QualityEngine", "RouteEngine", "Replay", "Analysis", "Reports", "CommandLineKit"]),
        .executableTarget(name: "rtctrace-harness", dependencies: ["SystemLayer", "TraceModel", "TraceCodec"]),
        .target(name: "TestSupport", dependencies: ["TraceModel", "TraceCodec", "Contract", "RouteEngine", "QualityEngine", "Replay"],
                path: "Tests/TestSupport"),
        .testTarget(name: "TraceFormatTests", dependencies: ["TraceModel", "TraceCodec", "Contract", "TraceFixtures", "TestSupport"]),
        .testTarget(name: "RouteEngineTests", dependencies: ["RouteEngine", "TraceModel", "Contract", "TraceFixtures", "TestSupport"]),
        .testTarget(name: "QualityEngineTests", dependencies: ["QualityEngine", "TraceModel", "Contract", "TraceFixtures", "TestSupport"]),
        .testTarget(name: "ReplayTests", dependencies: ["Replay", "Analysis", "Reports", "TraceModel", "TraceCodec", "Contract", "RouteEngine", "QualityEngine", "TestSupport"]),
        .testTarget(name: "ReportsTests", dependencies: ["Reports", "Analysis", "Replay", "TraceModel", "TraceCodec", "Contract", "QualityEngine", "TestSupport"]),
        .testTarget(name: "EndToEndTests", dependencies: ["TraceModel", "TraceCodec", "Contract", "TestSupport"]),
        .testTarget(name: "TraceRecorderTests", dependencies: ["SystemLayer", "TraceRecorder", "RecorderSimulation", "TraceModel", "TraceCodec", "Replay", "Contract", "Analysis", "TestSupport"]),
        .testTarget(name: "RobustnessTests", dependencies: ["CommandLineKit", "SystemLayer", "TraceModel", "TraceCodec", "Contract", "Replay", "Analysis", "Reports", "TestSupport"]),
    ]
)
