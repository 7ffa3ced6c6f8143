// swift-tools-version:6.0
// The benchmark harness for `make bench` (benchmarks/run.sh). A package of its own, so that `swift build`
// of rtctrace never builds it:  swift build -c release --package-path benchmarks
import PackageDescription

let package = Package(
    name: "rtctrace-bench",
    dependencies: [.package(name: "rtctrace", path: "..")],
    targets: [
        .executableTarget(name: "rtctrace-bench", dependencies: [
            .product(name: "SystemLayer", package: "rtctrace"),
            .product(name: "TraceModel", package: "rtctrace"),
            .product(name: "TraceCodec", package: "rtctrace"),
            .product(name: "TraceRecorder", package: "rtctrace"),
            .product(name: "TraceFixtures", package: "rtctrace"),
        ]),
    ]
)
