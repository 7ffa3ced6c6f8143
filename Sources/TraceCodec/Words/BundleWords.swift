import TraceModel

// What the reader says of a bundle (a tar of a recording's parts and its manifest) it cannot trust whole.
enum BundleWords {
    static let endsWithoutEndBlocks = "the archive ends without its end blocks (cut short)"
    static func memberCutShort(_ member: String, missingBytes: Int64) -> String {
        "\(member) is cut short: the archive ends \(missingBytes) bytes before it does"
    }
    static func manifestUnreadable(field: String, reason: String) -> String {
        "\(BundleManifest.fileName) does not read: field '\(field)': \(reason)"
    }
    static func manifestUnreadable(reason: String) -> String { "\(BundleManifest.fileName) does not read: \(reason)" }
    static let noManifestFirst = "it has no \(BundleManifest.fileName) first: its parts are read as found, unchecked"
    static func listedPartMissing(_ part: String) -> String { "part \(part) is missing from the bundle (its manifest lists it)" }
    static func sizeDisagrees(holds size: Int, manifestSays listed: Int) -> String {
        "holds \(size) bytes where the bundle's manifest says \(listed)"
    }
    static func checksumFails(sha256: String, manifestSays listed: String) -> String {
        "fails its checksum (SHA-256 \(sha256.prefix(16))…, the bundle's manifest says \(listed.prefix(16))…)"
    }
    static func memberNotListed(_ member: String) -> String { "\(member) is in the archive but not in its manifest: read unchecked" }
    static func manifestTooLarge(size: Int, cap: Int) -> String { "\(size) bytes, over the \(cap) a manifest may have" }
    static func laterManifestVersion(_ version: Int64, known: Int) -> String {
        "version \(version), written by a later recorder (this reader knows \(known))"
    }
}
