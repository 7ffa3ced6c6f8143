import TraceModel

/// A product of the fleet: the layer and the SDK's name (`SRTC` of `SRTC 4.6.2`). Versions, device models
/// and OS versions are compared only within one product: a tag that one layer's SDK raises and the other's
/// never does says nothing about a version of either.
package struct TriageProduct: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The layer the header names (nil when it names none).
    package var layer: Layer?
    /// The SDK's name: the header's `sdk` without its version (the whole of it when it has no version).
    package var name: String

    /// Creates a product.
    package init(layer: Layer?, name: String) {
        self.layer = layer
        self.name = name
    }

    /// The product of a row; nil when its header names no SDK.
    package init?(_ row: TriageRow) {
        guard let sdk = row.sdk else { return nil }
        self.init(layer: row.layer, name: TriageVersion(sdk)?.product ?? sdk)
    }

    /// `SRTC`, or `SRTC (smeeting)` when the layer is not the one the name suggests.
    package var description: String {
        let natural: Layer? = name.lowercased().hasPrefix("smeeting") ? .smeeting : name.lowercased().hasPrefix("srtc") ? .srtc : nil
        guard let layer, layer != natural else { return name }
        return "\(name) (\(layer.rawValue))"
    }

    /// By name, then layer.
    package static func < (a: TriageProduct, b: TriageProduct) -> Bool {
        (a.name, a.layer?.rawValue ?? "") < (b.name, b.layer?.rawValue ?? "")
    }
}

/// A version string split into its product and its numbers: `SRTC 4.6.2` is `SRTC` and `[4, 6, 2]`,
/// `iOS 17.4.1` is `iOS` and `[17, 4, 1]`. Versions of one product are ordered by their numbers.
package struct TriageVersion: Sendable, Equatable {
    /// Everything before the last space.
    package var product: String
    /// The numeric parts after it.
    package var numbers: [Int]

    /// Nil without a numeric version after the last space.
    package init?(_ s: String) {
        guard let space = s.lastIndex(of: " ") else { return nil }
        let product = String(s[..<space])
        let numbers = s[s.index(after: space)...].split(separator: ".", omittingEmptySubsequences: false).map { Int($0) }
        guard !product.isEmpty, !numbers.isEmpty, numbers.allSatisfy({ $0 != nil && $0! >= 0 }) else { return nil }
        self.product = product
        self.numbers = numbers.map { $0! }
    }

    /// Whether `self` is an earlier version than `other` (of any product: callers compare within one).
    package func precedes(_ other: TriageVersion) -> Bool { numbers.lexicographicallyPrecedes(other.numbers) }

    /// The groups among `groups` that are versions of the same product as `group`, oldest first
    /// (`group` included); empty when `group` is not a version.
    package static func family(of group: String, in groups: some Collection<String>) -> [String] {
        guard let v = TriageVersion(group) else { return [] }
        return groups.compactMap { g in TriageVersion(g).flatMap { $0.product == v.product ? (g, $0) : nil } }
            .sorted { $0.1.precedes($1.1) || (!$1.1.precedes($0.1) && $0.0 < $1.0) }.map(\.0)
    }
}
