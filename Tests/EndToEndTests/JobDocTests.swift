import Foundation
import TestSupport
import XCTest

/// The Jobs docs/triage.md shows, run as their pods would: the scripts and their environment are taken
/// out of the page's YAML (so page and test cannot drift apart), the mount paths become folders of a
/// temporary directory, and `rtctrace` on the PATH is the binary under test.
final class JobDocTests: XCTestCase {
    var dir = ""
    override func setUp() { dir = CLI.tempDir() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    /// One Job of the page: its name, the script of its container's `args: - |` and its `env`.
    struct DocJob {
        var name: String
        var completions: Int?
        var script: String
        var env: [String: String]
    }

    static func jobs() throws -> [DocJob] {
        let doc = try String(contentsOfFile: CLI.root + "/docs/triage.md", encoding: .utf8)
        let blocks = doc.components(separatedBy: "```yaml\n").dropFirst().map { $0.components(separatedBy: "```")[0] }
        return try blocks.filter { $0.contains("kind: Job\n") }.map { block in
            let lines = block.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            func indent(_ l: String) -> Int { l.prefix { $0 == " " }.count }
            let name = try XCTUnwrap(lines.first { $0.hasPrefix("  name: ") }).dropFirst(8)
            let completions = lines.first { $0.hasPrefix("  completions: ") }
                .flatMap { Int($0.dropFirst(15).split(separator: " ")[0]) }
            let argsAt = try XCTUnwrap(lines.firstIndex { $0.trimmingCharacters(in: .whitespaces) == "args:" }, "args: in \(name)")
            XCTAssertEqual(lines[argsAt + 1].trimmingCharacters(in: .whitespaces), "- |", "a block scalar script in \(name)")
            let base = indent(lines[argsAt + 1])
            var script: [String] = []
            var strip: Int?
            for l in lines[(argsAt + 2)...] {
                if !l.trimmingCharacters(in: .whitespaces).isEmpty && indent(l) <= base { break }
                let s = strip ?? indent(l)
                strip = s
                script.append(String(l.dropFirst(min(s, indent(l)))))
            }
            var env: [String: String] = [:]
            let pattern = try NSRegularExpression(pattern: #"- \{name: (\w+), value: "([^"]*)"\}"#)
            for m in pattern.matches(in: block, range: NSRange(block.startIndex..., in: block)) {
                env[String(block[Range(m.range(at: 1), in: block)!])] = String(block[Range(m.range(at: 2), in: block)!])
            }
            // A variable from a Secret gets a test value, as the Secret would give one.
            let secret = try NSRegularExpression(pattern: #"- \{name: (\w+), valueFrom: \{secretKeyRef: "#)
            for m in secret.matches(in: block, range: NSRange(block.startIndex..., in: block)) {
                env[String(block[Range(m.range(at: 1), in: block)!])] = "test-fleet-key"
            }
            return DocJob(name: String(name), completions: completions, script: script.joined(separator: "\n"), env: env)
        }
    }

    /// Runs a job's script with `/traces` and `/rows` in the temporary folder, as a pod with those mounts.
    func run(_ job: DocJob, env extra: [String: String] = [:]) -> CLI.Result {
        let script = job.script.replacingOccurrences(of: "\"/traces", with: "\"" + dir + "/traces")
            .replacingOccurrences(of: "\"/rows", with: "\"" + dir + "/rows")
        let bin = URL(fileURLWithPath: CLI.binary).deletingLastPathComponent().path
        var env = job.env.merging(extra) { $1 }
        env["PATH"] = bin + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        return CLI.run(["-c", script], env: env, cwd: dir, exe: "/bin/sh")
    }

    func test_theDocumentedJobsRunAsThePodsWould() throws {
        let jobs = try Self.jobs()
        XCTAssertEqual(jobs.map(\.name), ["rtctrace-triage-2026-11-29", "rtctrace-merge-2026-11-29"])
        let (triage, merge) = (jobs[0], jobs[1])
        let day = try XCTUnwrap(triage.env["DAY"])
        let shards = try XCTUnwrap(triage.env["SHARDS"].flatMap(Int.init))
        XCTAssertEqual(triage.completions, shards, "completions is the shard count")
        XCTAssertEqual(merge.env["SHARDS"], triage.env["SHARDS"])
        XCTAssertEqual(merge.env["DAY"], day)
        XCTAssertTrue(triage.script.contains("--shard \"$JOB_COMPLETION_INDEX/$SHARDS\""), triage.script)
        // Kubernetes replaces $(NAME) for the container's env names before the shell runs: none may be there.
        for job in jobs {
            for name in job.env.keys { XCTAssertFalse(job.script.contains("$(\(name))"), "\(job.name): $(\(name))") }
        }

        // The volumes, as a fresh claim gives them: the day's uploads, and an empty rows folder.
        let uploads = dir + "/traces/" + day
        try FileManager.default.createDirectory(atPath: dir + "/traces", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: CLI.root + "/traces", toPath: uploads)
        try FileManager.default.createDirectory(atPath: dir + "/rows", withIntermediateDirectories: true)

        for i in 0..<shards {
            let pod = run(triage, env: ["JOB_COMPLETION_INDEX": String(i)])
            XCTAssertEqual(pod.status, 0, "shard \(i): \(pod.err)")
            XCTAssertTrue(FileManager.default.fileExists(atPath: "\(dir)/rows/\(day)/shard-\(i).jsonl.zst"), "shard \(i)")
        }
        // A merge that waits no longer than it has to refuses a day with a shard missing.
        let last = "\(dir)/rows/\(day)/shard-\(shards - 1).jsonl.zst"
        try FileManager.default.moveItem(atPath: last, toPath: dir + "/held-back")
        let early = run(merge, env: ["WAIT_SECONDS": "0"])
        XCTAssertEqual(early.status, 1, early.err)
        XCTAssertTrue(early.err.contains("\(shards - 1) of \(shards) shards"), early.err)
        XCTAssertFalse(FileManager.default.fileExists(atPath: "\(dir)/rows/\(day).jsonl.zst"))
        // One shard too many (an earlier run with more shards) is refused too.
        try FileManager.default.copyItem(atPath: dir + "/held-back", toPath: "\(dir)/rows/\(day)/shard-\(shards).jsonl.zst")
        try FileManager.default.moveItem(atPath: dir + "/held-back", toPath: last)
        let extra = run(merge)
        XCTAssertEqual(extra.status, 1, extra.err)
        try FileManager.default.removeItem(atPath: "\(dir)/rows/\(day)/shard-\(shards).jsonl.zst")

        let merged = run(merge)
        XCTAssertEqual(merged.status, 0, merged.err)
        let mergedRows = CLI.run(["-dc", "\(dir)/rows/\(day).jsonl.zst"], exe: "/usr/bin/zstd")
        XCTAssertEqual(mergedRows.status, 0, mergedRows.err)
        // The merged day is the rows of one unsharded run over the same paths, each trace once.
        XCTAssertEqual(triage.env["RTCTRACE_SALT"], "test-fleet-key", "the pods read the fleet's key from a Secret")
        let whole = CLI.run(["triage", "\(dir)/traces/\(day)", "--salt", "test-fleet-key"], cwd: dir)
        XCTAssertEqual(whole.status, 0, whole.err)
        let expected = whole.out.split(separator: "\n").sorted(), got = mergedRows.out.split(separator: "\n").sorted()
        XCTAssertGreaterThan(expected.count, 100)
        XCTAssertEqual(got.count, expected.count)
        XCTAssertEqual(got, expected)
        XCTAssertTrue(got.contains { $0.contains("\"channel\":\"chan-") }, "keyed tokens in the rows")
        // The day's summary is the unsharded run's, but for the fields that describe a run.
        let summary = try Data(contentsOf: URL(fileURLWithPath: "\(dir)/rows/\(day).summary.json"))
        let published = try XCTUnwrap(try JSONSerialization.jsonObject(with: summary) as? [String: Any])
        let run = CLI.run(["triage", "\(dir)/traces/\(day)", "--json", "--salt", "test-fleet-key"], cwd: dir)
        var unsharded = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(run.err.utf8)) as? [String: Any])
        XCTAssertGreaterThan(unsharded["traces"] as? Int ?? 0, 100)
        for key in ["skipped", "output"] { unsharded[key] = nil }
        let sameKeys = published.filter { unsharded[$0.key] != nil }
        XCTAssertEqual(Set(sameKeys.keys), Set(unsharded.keys))
        XCTAssertEqual(try JSONSerialization.data(withJSONObject: sameKeys, options: [.sortedKeys]),
                       try JSONSerialization.data(withJSONObject: unsharded, options: [.sortedKeys]))
        let hidden = try FileManager.default.contentsOfDirectory(atPath: dir + "/rows").filter { $0.hasPrefix(".") }
            + FileManager.default.contentsOfDirectory(atPath: "\(dir)/rows/\(day)").filter { $0.hasPrefix(".") }
        XCTAssertEqual(hidden, [], "no temporary is left")
    }

    /// The image recipe the page describes is the one in the repository.
    func test_theImageRecipeIsInTheRepository() throws {
        let doc = try String(contentsOfFile: CLI.root + "/docs/triage.md", encoding: .utf8)
        XCTAssertTrue(doc.contains("podman build -t registry.example.com/support/rtctrace:1 -f .ci/Containerfile ."))
        let recipe = try String(contentsOfFile: CLI.root + "/.ci/Containerfile", encoding: .utf8)
        XCTAssertTrue(recipe.contains("--static-swift-stdlib --product rtctrace"))
        XCTAssertTrue(recipe.contains("libzstd1"))
        XCTAssertTrue(recipe.contains("ENTRYPOINT [\"/usr/local/bin/rtctrace\"]"))
        for job in try Self.jobs() { XCTAssertTrue(doc.contains("image: registry.example.com/support/rtctrace:1"), job.name) }
    }

    /// The nightly command and the CI matrix's step, as the page shows them, against a folder of uploads:
    /// the rows land in a folder that did not exist, and the golden corpus's unexplained divergences
    /// cross the threshold (exit 1, the finding, not a failure to run).
    func test_theNightlyCommandAndTheCIMatrixRunAsShown() throws {
        let doc = try String(contentsOfFile: CLI.root + "/docs/triage.md", encoding: .utf8)
        let nightly = try XCTUnwrap(doc.components(separatedBy: "```\n# Nightly").dropFirst().first?.components(separatedBy: "```").first)
        try FileManager.default.copyItem(atPath: CLI.root + "/traces", toPath: dir + "/uploads")
        let bin = URL(fileURLWithPath: CLI.binary).deletingLastPathComponent().path
        let env = ["PATH": bin + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")]
        let script = nightly.replacingOccurrences(of: "/srv/uploads/2026-11-29", with: "uploads")
        let r = CLI.run(["-c", script], env: env, cwd: dir, exe: "/bin/sh")
        XCTAssertEqual(r.status, 1, r.err)
        XCTAssertTrue(r.err.contains("Error: --fail-on 'unexplained-divergence>0' crossed: "), r.err)
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir + "/rows/2026-11-29.jsonl.zst"))

        let step = try XCTUnwrap(doc.split(separator: "\n").first { $0.contains("- run: rtctrace triage") })
        let matrix = try XCTUnwrap(doc.split(separator: "\n").first { $0.contains("shard: [") })
        let shards = matrix.split(separator: "[")[1].split(separator: "]")[0].split(separator: ",").count
        var rows = 0
        for i in 0..<shards {
            let command = String(step.split(separator: "- run: ", maxSplits: 1)[1]).replacingOccurrences(of: "${{ matrix.shard }}", with: String(i))
            let shard = CLI.run(["-c", command], env: env, cwd: dir, exe: "/bin/sh")
            XCTAssertTrue([0, 1].contains(shard.status), "shard \(i): \(shard.err)")
            let out = CLI.run(["-dc", "\(dir)/rows-\(i).jsonl.zst"], exe: "/usr/bin/zstd")
            rows += out.out.split(separator: "\n").count
        }
        let whole = CLI.run(["triage", "uploads"], cwd: dir)
        XCTAssertEqual(rows, whole.out.split(separator: "\n").count, "the shards together are every trace once")
    }
}
