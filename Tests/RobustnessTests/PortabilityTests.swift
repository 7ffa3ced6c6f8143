import Foundation
import TestSupport
import XCTest

/// The C library is reached through one module: every other source file builds unchanged on
/// glibc, musl and Apple platforms.
final class PortabilityTests: XCTestCase {
    /// Every Swift file under Sources/, relative to it.
    func sourceFiles() throws -> [String] {
        let sources = Support.root + "/Sources"
        guard let walker = FileManager.default.enumerator(atPath: sources) else { throw CocoaError(.fileNoSuchFile) }
        return walker.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }.sorted()
    }

    func test_onlySystemLayerImportsThePlatformCLibrary() throws {
        let files = try sourceFiles()
        XCTAssertGreaterThan(files.count, 50, "Sources/ was not found beside the tests")
        let platformImport = try NSRegularExpression(pattern: #"^\s*(@_exported\s+)?import\s+(Glibc|Musl|Darwin)\b"#, options: .anchorsMatchLines)
        var offenders: [String] = []
        var layerFiles = 0
        for file in files {
            let text = try String(contentsOfFile: Support.root + "/Sources/" + file, encoding: .utf8)
            let imports = platformImport.numberOfMatches(in: text, range: NSRange(text.startIndex..., in: text))
            if file.hasPrefix("SystemLayer/") {
                // Where the layer imports one platform's C library, it imports all three.
                if imports > 0 {
                    layerFiles += 1
                    for name in ["Glibc", "Musl", "Darwin"] {
                        XCTAssertTrue(text.contains("canImport(\(name))"), "\(file) has no canImport(\(name)) branch")
                    }
                }
            } else if imports > 0 {
                offenders.append(file)
            }
        }
        XCTAssertEqual(offenders, [], "these files import the platform C library directly; use SystemLayer")
        XCTAssertGreaterThan(layerFiles, 0)
    }
}
