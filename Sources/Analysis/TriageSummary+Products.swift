import Contract
import TraceModel

extension TriageSummary {
    /// The readable traces of one product, with its versions, OS versions and device models.
    package struct ProductCounts: Sendable, Equatable {
        /// Readable traces of the product.
        package var traces = 0
        /// Traces per tag.
        package var tagCounts: [TriageTag: Int] = [:]
        /// Traces per problem signature (`Signature`), for the comparison with a baseline period.
        package var signatures: [Signature: Int] = [:]
        /// Traces per SDK version (`SRTC 4.6.2`).
        package var bySDK: [String: Group] = [:]
        /// Traces per OS version (`iOS 17.4.1`).
        package var byOS: [String: Group] = [:]
        /// Traces per device model.
        package var byDevice: [String: Group] = [:]

        /// The groups of one dimension.
        package func groups(_ d: TriageRegressions.Dimension) -> [String: Group] {
            switch d {
            case .sdk: bySDK
            case .os: byOS
            case .device: byDevice
            }
        }

        mutating func add(_ row: TriageRow, signature: Signature?, cluster: ContentCluster, keys: inout Int) {
            traces += 1
            for t in row.tags { tagCounts[t, default: 0] += 1 }
            if let signature, signatures[signature] != nil || signatures.count < TriageSummary.signatureCap {
                signatures[signature, default: 0] += 1
            }
            Self.add(row, cluster, key: row.sdk, into: &bySDK, keys: &keys)
            Self.add(row, cluster, key: row.os, into: &byOS, keys: &keys)
            Self.add(row, cluster, key: row.device, into: &byDevice, keys: &keys)
        }

        private static func add(_ row: TriageRow, _ cluster: ContentCluster, key: String?, into table: inout [String: Group], keys: inout Int) {
            var k = key ?? TriageSummary.unknownVersion
            if table[k] == nil && table.count >= TriageSummary.versionCap { k = TriageSummary.otherVersions }
            // In place: a copy of the group would copy its tables for every row.
            table[k, default: Group()].add(row, cluster, keys: &keys)
        }
    }

    /// Readable traces of one version, OS version or device model within a product.
    package struct Group: Sendable, Equatable {
        /// Readable traces.
        package var traces = 0
        /// Traces per tag.
        package var tagCounts: [TriageTag: Int] = [:]
        /// Per tag, its traces by content cluster: whether one app's one problem makes up most of them.
        package var clusters: [TriageTag: [ContentCluster: Int]] = [:]

        mutating func add(_ row: TriageRow, _ cluster: ContentCluster, keys: inout Int) {
            traces += 1
            for t in row.tags {
                tagCounts[t, default: 0] += 1
                guard !t.describesInput else { continue }
                if clusters[t]?[cluster] != nil {
                    clusters[t]![cluster]! += 1
                } else if keys < TriageSummary.clusterCap {
                    keys += 1
                    clusters[t, default: [:]][cluster] = 1
                }
            }
        }

        /// The cluster that holds the most of the traces with `tag`, with their number (ties: the first
        /// in the cluster's order); nil when none does.
        package func largestCluster(_ tag: TriageTag) -> (cluster: ContentCluster, traces: Int)? {
            clusters[tag]?.max { a, b in a.value != b.value ? a.value < b.value : b.key < a.key }.map { ($0.key, $0.value) }
        }
    }

    /// Traces of one content: the same problem from the same app. Copies of one upload are duplicates,
    /// counted once; traces that one app's one problem repeats are this (a customer's build, a test rig
    /// uploading the same session again and again).
    package struct ContentCluster: Hashable, Sendable, Comparable, CustomStringConvertible {
        /// The app's bundle id (nil when the header names none).
        package var bundleId: String?
        /// The problem: the signature in words (`Signature.key`), or the tags of a trace without one.
        package var problem: String

        /// Creates a cluster.
        package init(bundleId: String?, problem: String) {
            self.bundleId = bundleId
            self.problem = problem
        }

        /// The cluster of a row with the given signature.
        init(_ row: TriageRow, signature: Signature?) {
            bundleId = row.bundleId
            problem = signature?.key ?? row.tags.filter { !$0.describesInput }.map(\.rawValue).joined(separator: ", ")
        }

        /// `interruption.notRecovered from com.example.app`.
        package var description: String { "\(problem.isEmpty ? "no problem" : problem) from \(bundleId ?? "an app that names no bundle id")" }

        /// By bundle id, then problem.
        package static func < (a: ContentCluster, b: ContentCluster) -> Bool { (a.bundleId ?? "", a.problem) < (b.bundleId ?? "", b.problem) }
    }
}
