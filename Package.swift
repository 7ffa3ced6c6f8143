// swift-tools-version:6.0
import PackageDescription

/// Release builds skip dynamic exclusivity checks in the modules on the read and replay path: every
/// access to a class's stored property is otherwise checked at run time (a few % of a replay). Debug
/// builds, and so every test run, keep the checks.
let hotPath: [SwiftSetting] = [.unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))]

let package = Package(
    name: "rtctrace",
    products: [
        .executable(name: "rtctrace", targets: ["rtctrace"]),
        .library(name: "TraceModel", targets: ["TraceModel"]),
        .library(name: "TraceFrames", targets: ["TraceFrames"]),
        .library(name: "TraceCodec", targets: ["TraceCodec"]),
        .library(name: "Contract", targets: ["Contract"]),
        .library(name: "RouteEngine", targets: ["RouteEngine"]),
        .library(name: "QualityEngine", targets: ["QualityEngine"]),
        .library(name: "Replay", targets: ["Replay"]),
        .library(name: "Analysis", targets: ["Analysis"]),
        .library(name: "Reports", targets: ["Reports"]),
        .library(name: "TraceRecorder", targets: ["TraceRecorder"]),
        .library(name: "CommandLineKit", targets: ["CommandLineKit"]),
        .library(name: "Workflows", targets: ["Workflows"]),
        .library(name: "SystemLayer", targets: ["SystemLayer"]),
        .library(name: "TraceFixtures", targets: ["TraceFixtures"]),
        .library(name: "LogImport", targets: ["LogImport"]),
    ],
    targets: [
        .systemLibrary(
            name: "CZstd",
            pkgConfig: "libzstd",
            providers: [.apt(["libzstd-dev"]), .brew(["zstd"])]
        ),
        // The processor's counter of time, read in one instruction (no library call): what a recorder's
        // caller stamps a record with where it runs at a constant rate (SystemLayer's `TickCounter`).
        .target(name: "CTickCounter"),
        .target(name: "SystemLayer", dependencies: ["CTickCounter"]),
        // The recorder's object for the calling thread, a C11 thread-local pointer read inline (no library
        // call): what a recorder's caller finds its buffer through (`ThreadProducers`).
        .target(name: "CRecorderThread"),
        // The structural scan `cat` checks a passed-through line with (SSE2/AVX2 where the CPU has them).
        .target(name: "CLineScan"),
        // SHA-256's compression with the x86 SHA extensions, checked at run time (TraceModel's `SHA256`).
        .target(name: "CSHA256"),
        // No unsafe flag here, nor in TraceFrames, SystemLayer, CTickCounter or CRecorderThread: the recorder an SDK takes by version
        // depends on them, and SwiftPM refuses a versioned dependency with one (DependencyTests).
        .target(name: "TraceModel", dependencies: ["SystemLayer", "CSHA256"]),
        // The container's frames and the compressor interface. libzstd only where the platform has one;
        // elsewhere (iOS) an SDK passes its own compressor, or frames are stored uncompressed.
        .target(name: "TraceFrames", dependencies: [.target(name: "CZstd", condition: .when(platforms: [.linux, .macOS]))]),
        .target(name: "TraceCodec", dependencies: ["CZstd", "CLineScan", "SystemLayer", "TraceModel", "TraceFrames"], swiftSettings: hotPath),
        .target(name: "Contract", dependencies: ["TraceModel"]),
        // The device's own log as text (log show, Console) turned into records: sys.* beside the trace (E1).
        .target(name: "LogImport", dependencies: ["TraceModel", "TraceCodec"]),
        .target(name: "TraceFixtures", dependencies: ["TraceModel"]),
        .target(name: "RouteEngine", dependencies: ["TraceModel", "Contract"], swiftSettings: hotPath),
        .target(name: "QualityEngine", dependencies: ["TraceModel", "Contract"], swiftSettings: hotPath),
        .target(name: "Replay", dependencies: ["TraceModel", "TraceCodec", "Contract", "RouteEngine", "QualityEngine"], swiftSettings: hotPath),
        .target(name: "Analysis", dependencies: ["SystemLayer", "TraceModel", "TraceCodec", "LogImport", "Contract", "QualityEngine", "Replay"], swiftSettings: hotPath),
        .target(name: "Reports", dependencies: ["SystemLayer", "TraceModel", "TraceCodec", "LogImport", "Contract", "QualityEngine", "Replay", "Analysis"]),
        // The command-line kit: options, arguments, output targets, exit codes. Nothing of the replay.
        .target(name: "CommandLineKit", dependencies: ["SystemLayer", "TraceModel", "TraceCodec"], swiftSettings: hotPath),
        // What the commands do with the kit and the libraries: the golden check, a command's TRACE
        // arguments resolved into one trace, the replay options on the command line.
        .target(name: "Workflows", dependencies: ["SystemLayer", "TraceModel", "TraceCodec", "QualityEngine", "Replay", "Analysis", "Reports",
                                                  "CommandLineKit"], swiftSettings: hotPath),
        // The device half an SDK embeds: no reader, decoder or contract catalogue (`import TraceRecorder` alone).
        .target(name: "TraceRecorder", dependencies: ["SystemLayer", "TraceModel", "TraceFrames", "CRecorderThread"]),
        .executableTarget(name: "rtctrace", dependencies: ["SystemLayer", "TraceModel", "TraceCodec", "Contract", "QualityEngine", "Replay", "Analysis", "Reports", "CommandLineKit",
                                                     "Workflows", "LogImport"]),
        .target(name: "TestSupport", dependencies: ["SystemLayer", "TraceModel", "TraceCodec", "Contract", "RouteEngine", "QualityEngine", "Replay", "TraceFixtures"],
                path: "Tests/TestSupport"),
        .testTarget(name: "TraceFormatTests", dependencies: ["TraceModel", "TraceCodec", "TraceFixtures", "TestSupport"]),
        .testTarget(name: "RouteEngineTests", dependencies: ["RouteEngine", "TraceModel", "Contract", "TraceFixtures", "TestSupport"]),
        .testTarget(name: "QualityEngineTests", dependencies: ["QualityEngine", "TraceModel", "Contract", "TraceFixtures", "TestSupport"]),
        .testTarget(name: "ReplayTests", dependencies: ["Replay", "Analysis", "Reports", "TraceModel", "TraceCodec", "Contract", "TraceFixtures", "TestSupport"]),
        .testTarget(name: "ReportsTests", dependencies: ["Reports", "Analysis", "Replay", "TraceModel", "TraceCodec", "Contract", "TraceFixtures", "TestSupport"]),
        .testTarget(name: "EndToEndTests", dependencies: ["rtctrace", "CommandLineKit", "Analysis", "Reports", "SystemLayer", "TraceModel", "TraceCodec", "TraceFixtures", "TestSupport"],
                    exclude: ["Fixtures"]),
        // The simulated device the recorder's tests kill and restart is test code (Simulation/, SimulatedDevice).
        .testTarget(name: "TraceRecorderTests", dependencies: ["SystemLayer", "TraceRecorder", "TraceFrames", "CZstd", "TraceModel", "TraceCodec", "Contract",
                                                               "TraceFixtures", "Replay", "Analysis", "TestSupport"]),
        .testTarget(name: "CommandLineKitTests", dependencies: ["CommandLineKit", "Workflows", "SystemLayer", "TraceModel", "TraceCodec", "Analysis", "TestSupport"]),
        .testTarget(name: "LogImportTests", dependencies: ["LogImport", "TraceModel", "TraceCodec", "Contract", "Replay", "Analysis", "Reports",
                                                           "TraceFixtures", "TestSupport"]),
        .testTarget(name: "RobustnessTests", dependencies: ["CommandLineKit", "Workflows", "SystemLayer", "TraceModel", "TraceCodec", "Replay", "Analysis", "Reports", "TestSupport"]),
    ]
)
