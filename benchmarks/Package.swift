// swift-tools-version:6.0
// The benchmark harness for `make bench` (benchmarks/run.sh) and the counted figures `make test` gates
// (benchmarks/ratchet.sh). A package of its own, so that `swift build` of rtctrace never builds it:
//   swift build -c release --package-path benchmarks
// Beside the public SystemLayer, TraceModel and TraceRecorder, it reaches the package through its Tools SPI
// (`@_spi(Tools) import`, docs/architecture.md) and nothing else.
import PackageDescription

let package = Package(
    name: "rtctrace-bench",
    dependencies: [.package(name: "rtctrace", path: "..")],
    targets: [
        // libzstd itself, for the decompression phase measured on its own (`rtctrace-bench phases`).
        .systemLibrary(name: "CZstdBench", pkgConfig: "libzstd", providers: [.apt(["libzstd-dev"]), .brew(["zstd"])]),
        // What both executables share: the bench sessions and the one place that calls the replay.
        .target(name: "BenchSupport", dependencies: [
            .product(name: "SystemLayer", package: "rtctrace"),
            .product(name: "TraceModel", package: "rtctrace"),
            .product(name: "TraceCodec", package: "rtctrace"),
            .product(name: "TraceFixtures", package: "rtctrace"),
            .product(name: "Replay", package: "rtctrace"),
        ]),
        // The ratchet's generator and counted replay figures: small, so `make test` builds it in debug.
        .executableTarget(name: "ratchet-figures", dependencies: ["BenchSupport"]),
        .executableTarget(name: "rtctrace-bench", dependencies: [
            "BenchSupport", "CZstdBench",
            .product(name: "SystemLayer", package: "rtctrace"),
            .product(name: "TraceModel", package: "rtctrace"),
            .product(name: "TraceCodec", package: "rtctrace"),
            .product(name: "TraceRecorder", package: "rtctrace"),
            .product(name: "TraceFixtures", package: "rtctrace"),
            .product(name: "Replay", package: "rtctrace"),
            .product(name: "Analysis", package: "rtctrace"),
            .product(name: "Reports", package: "rtctrace"),
        ]),
    ]
)
