// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "rtctrace",
    products: [
        .executable(name: "rtctrace", targets: ["rtctrace"]),
        .library(name: "TraceFormat", targets: ["TraceFormat"]),
    ],
    targets: [
        .systemLibrary(
            name: "CZstd",
            pkgConfig: "libzstd",
            providers: [.apt(["libzstd-dev"])]
        ),
        .target(name: "TraceFormat", dependencies: ["CZstd"]),
        .executableTarget(name: "rtctrace", dependencies: ["TraceFormat"]),
        .testTarget(name: "TraceFormatTests", dependencies: ["TraceFormat"]),
    ]
)
