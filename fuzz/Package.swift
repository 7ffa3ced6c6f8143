// swift-tools-version:6.0
// libFuzzer targets for rtctrace. Built only by `make fuzz`, never by the main package:
//   swift build -c release -Xswiftc -sanitize=fuzzer -Xswiftc -parse-as-library
import PackageDescription

let package = Package(
    name: "rtctrace-fuzz",
    dependencies: [.package(name: "rtctrace", path: "..")],
    targets: [
        .target(name: "CFuzzer"),
        .target(name: "FuzzSupport", dependencies: ["CFuzzer", .product(name: "TraceModel", package: "rtctrace"), .product(name: "TraceCodec", package: "rtctrace")]),
        .executableTarget(name: "FuzzFrames", dependencies: [
            "FuzzSupport", .product(name: "TraceModel", package: "rtctrace"), .product(name: "TraceCodec", package: "rtctrace"),
        ]),
        .executableTarget(name: "FuzzDecoder", dependencies: [
            "FuzzSupport", .product(name: "TraceModel", package: "rtctrace"), .product(name: "TraceCodec", package: "rtctrace"),
        ]),
        .executableTarget(name: "FuzzLimits", dependencies: [
            "FuzzSupport", .product(name: "TraceModel", package: "rtctrace"), .product(name: "TraceCodec", package: "rtctrace"),
            .product(name: "Replay", package: "rtctrace"), .product(name: "Reports", package: "rtctrace"), .product(name: "Analysis", package: "rtctrace"),
            .product(name: "CommandLineKit", package: "rtctrace"),
        ]),
        .executableTarget(name: "FuzzReplay", dependencies: [
            "FuzzSupport", .product(name: "TraceModel", package: "rtctrace"), .product(name: "TraceCodec", package: "rtctrace"),
            .product(name: "Replay", package: "rtctrace"), .product(name: "Reports", package: "rtctrace"), .product(name: "Analysis", package: "rtctrace"),
            .product(name: "CommandLineKit", package: "rtctrace"), .product(name: "Workflows", package: "rtctrace"),
        ]),
    ]
)
