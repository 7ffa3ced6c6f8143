import Foundation
import TestSupport
import XCTest

/// What a command says about the file system is what happened: a rename or deletion that failed is
/// reported as failed (exit 74), never as done.
final class FileSystemFailureTests: XCTestCase {
    var dir = ""
    override func setUp() { dir = CLI.tempDir() }
    override func tearDown() {
        chmod(dir + "/ro", 0o755)
        try? FileManager.default.removeItem(atPath: dir)
    }

    let fm = FileManager.default

    /// A folder the command cannot write: mode 0555, and, when the tests run as root (who may write
    /// anyway), the command is run as `nobody` through setpriv.
    func readOnlyFolder() throws -> String {
        let ro = dir + "/ro"
        try fm.createDirectory(atPath: ro, withIntermediateDirectories: true)
        return ro
    }

    func runWithoutWriteAccess(_ folder: String, _ args: [String]) throws -> CLI.Result {
        XCTAssertEqual(chmod(folder, 0o555), 0)
        guard getuid() == 0 else { return CLI.runInProcess(args) }
        guard fm.isExecutableFile(atPath: "/usr/bin/setpriv") else { throw XCTSkip("running as root without setpriv: no folder is read-only") }
        // The user may not reach the build folder (a clone in a private temporary folder): it runs a
        // copy of rtctrace in the test's folder, which its check workers are started from too.
        let exe = dir + "/rtctrace"
        if !fm.fileExists(atPath: exe) { try fm.copyItem(atPath: CLI.binary, toPath: exe) }
        XCTAssertEqual(chmod(exe, 0o755), 0)
        return CLI.run(["--reuid=65534", "--regid=65534", "--clear-groups", exe] + args, exe: "/usr/bin/setpriv")
    }

    /// `reject` on a read-only folder printed "rejected" for files that remained, exit 0.
    func test_rejectOnAReadOnlyFolderSaysWhatItCouldNotDelete() throws {
        let ro = try readOnlyFolder()
        try fm.copyItem(atPath: CLI.root + "/traces/srtc-bluetooth-blocks-speaker.golden.json", toPath: ro + "/x.golden.json.new")
        let r = try runWithoutWriteAccess(ro, ["reject", ro])
        XCTAssertEqual(r.status, 74, r.out + r.err)
        XCTAssertFalse(r.out.contains("rejected"), r.out)
        XCTAssertTrue(r.err.contains("Error: \(ro)/x.golden.json.new: cannot delete: Permission denied"), r.err)
        XCTAssertTrue(fm.fileExists(atPath: ro + "/x.golden.json.new"))
    }

    /// `accept` goes on past a snapshot it cannot rename and names it.
    func test_acceptOnAReadOnlyFolderSaysWhatItCouldNotRename() throws {
        let ro = try readOnlyFolder()
        try fm.copyItem(atPath: CLI.root + "/traces/srtc-bluetooth-blocks-speaker.golden.json", toPath: ro + "/x.golden.json.new")
        try fm.copyItem(atPath: CLI.root + "/traces/srtc-bluetooth-blocks-speaker.golden.json", toPath: ro + "/y.golden.json.new")
        let r = try runWithoutWriteAccess(ro, ["accept", ro])
        XCTAssertEqual(r.status, 74, r.out + r.err)
        XCTAssertFalse(r.out.contains("accepted"), r.out)
        for name in ["x", "y"] {
            XCTAssertTrue(r.err.contains("\(ro)/\(name).golden.json.new: cannot rename to \(ro)/\(name).golden.json: Permission denied"), r.err)
            XCTAssertTrue(fm.fileExists(atPath: ro + "/\(name).golden.json.new"))
        }
        XCTAssertTrue(r.err.contains("(2 of 2 snapshots not accepted)"), r.err)
    }

    /// `check --unreferenced delete` on a read-only folder printed "deleted" for a snapshot that remained.
    func test_unreferencedDeleteOnAReadOnlyFolderSaysWhatItCouldNotDelete() throws {
        let ro = try readOnlyFolder()
        try fm.copyItem(atPath: CLI.root + "/traces/srtc-bluetooth-blocks-speaker.jsonl", toPath: ro + "/t.jsonl")
        try fm.copyItem(atPath: CLI.root + "/traces/srtc-bluetooth-blocks-speaker.golden.json", toPath: ro + "/t.golden.json")
        try fm.copyItem(atPath: CLI.root + "/traces/srtc-bluetooth-blocks-speaker.golden.json", toPath: ro + "/orphan.golden.json")
        let r = try runWithoutWriteAccess(ro, ["check", ro, "--unreferenced", "delete"])
        XCTAssertEqual(r.status, 74, r.out + r.err)
        XCTAssertFalse(r.err.contains("deleted"), r.err)
        XCTAssertTrue(r.err.contains("\(ro)/orphan.golden.json: snapshot with no trace, cannot delete: Permission denied"), r.err)
        XCTAssertTrue(r.out.contains("1 passed, 0 failed"), "the check itself ran: \(r.out)")
        XCTAssertTrue(fm.fileExists(atPath: ro + "/orphan.golden.json"))
    }

    /// A folder walk never opens a FIFO, a device or a kernel file, even named and linked as a trace:
    /// `triage` hung forever on a link to /proc/kmsg. Each is skipped with a warning naming it.
    func test_folderWalksNeverOpenFIFOsDevicesOrKernelFiles() throws {
        let t = dir + "/t"
        try fm.createDirectory(atPath: t, withIntermediateDirectories: true)
        try fm.copyItem(atPath: CLI.root + "/traces/srtc-bluetooth-blocks-speaker.jsonl", toPath: t + "/good.jsonl")
        try fm.copyItem(atPath: CLI.root + "/traces/srtc-bluetooth-blocks-speaker.golden.json", toPath: t + "/good.golden.json")
        XCTAssertEqual(mkfifo(t + "/pipe.jsonl", 0o644), 0)
        var links = ["null.jsonl": "/dev/null", "status.jsonl": "/proc/self/status"]
        if fm.fileExists(atPath: "/proc/kmsg") { links["kmsg.jsonl"] = "/proc/kmsg" }
        for (name, target) in links { try fm.createSymbolicLink(atPath: t + "/" + name, withDestinationPath: target) }
        let list = dir + "/list.txt"
        try ([t + "/good.jsonl", t + "/pipe.jsonl"] + links.keys.map { t + "/" + $0 }).joined(separator: "\n").write(toFile: list, atomically: true, encoding: .utf8)
        for command in [["triage", t], ["check", t], ["verify", t], ["triage", "@" + list], ["check", "@" + list]] {
            var env: [String: String?] = ["CI": nil]
            env["NO_COLOR"] = "1"
            let r = runProcess(CLI.binary, command, env: env, timeout: 300)
            let out = String(decoding: r.out, as: UTF8.self), err = String(decoding: r.err, as: UTF8.self)
            XCTAssertFalse(r.timedOut, "\(command[0]) blocked on a file it opened: \(err)")
            XCTAssertEqual(r.status, 0, "\(command[0]): \(out) \(err)")
            XCTAssertTrue(out.contains("good.jsonl"), "\(command[0]): \(out)")
            if command == ["triage", "@" + list] {
                // Named in a list, each gets a row saying it was not read.
                let rows = out.split(separator: "\n")
                XCTAssertEqual(rows.count, 2 + links.count, out)
                for name in ["pipe.jsonl"] + links.keys {
                    XCTAssertTrue(rows.contains { $0.contains("/\(name)\"") && $0.contains("not read") && $0.contains("unreadable") }, "\(name): \(out)")
                }
                continue
            }
            XCTAssertFalse(out.contains("pipe.jsonl") || out.contains("status.jsonl") || out.contains("kmsg.jsonl") || out.contains("null.jsonl"), "\(command[0]) read one: \(out)")
            XCTAssertTrue(err.contains("pipe.jsonl: skipped"), "\(command[0]): \(err)")
            for name in links.keys { XCTAssertTrue(err.contains("\(name): skipped"), "\(command[0]) says nothing of \(name): \(err)") }
            if links["kmsg.jsonl"] != nil, command[0] == "triage" { XCTAssertTrue(err.contains("kmsg.jsonl: skipped, a kernel file (on /proc), not read"), err) }
        }
    }

    /// A trace in a walked folder that cannot be read (no permission) is given up on with a row saying
    /// so; the other traces' rows are written.
    func test_anUnreadableTraceInAFolderGetsARowSayingSo() throws {
        let ro = try readOnlyFolder()
        try fm.copyItem(atPath: CLI.root + "/traces/srtc-bluetooth-blocks-speaker.jsonl", toPath: ro + "/good.jsonl")
        try fm.copyItem(atPath: CLI.root + "/traces/srtc-bluetooth-blocks-speaker.jsonl", toPath: ro + "/secret.jsonl")
        XCTAssertEqual(chmod(ro + "/secret.jsonl", 0o000), 0)
        let r = try runWithoutWriteAccess(ro, ["triage", ro])
        XCTAssertEqual(r.status, 0, r.err)
        let rows = r.out.split(separator: "\n")
        XCTAssertEqual(rows.count, 2, r.out)
        let secret = try XCTUnwrap(rows.first { $0.contains("secret.jsonl") })
        XCTAssertTrue(secret.contains("Permission denied"), String(secret))
        XCTAssertTrue(rows.contains { $0.contains("good.jsonl") && $0.contains("\"layer\":\"srtc\"") }, r.out)
    }

    /// A folder inside a walked tree that cannot be read (mode 000), and an entry of a folder that can be
    /// listed but not searched (mode 0444), get an `unreadable` row saying why and are counted: triage
    /// said "Triaged 0 traces … nothing is wrong" of such a tree, exit 0. `explain` and `check` of the
    /// tree warn, naming each.
    func test_anUnreadableFolderInAWalkGetsARowAndOtherReadersWarn() throws {
        let ro = try readOnlyFolder()
        for sub in ["locked", "listed"] {
            try fm.createDirectory(atPath: ro + "/" + sub, withIntermediateDirectories: true)
            try fm.copyItem(atPath: CLI.root + "/traces/srtc-bluetooth-blocks-speaker.jsonl", toPath: ro + "/\(sub)/t.jsonl")
        }
        try fm.copyItem(atPath: CLI.root + "/traces/srtc-setroute-before-join.jsonl", toPath: ro + "/good.jsonl")
        XCTAssertEqual(chmod(ro + "/locked", 0o000), 0)
        XCTAssertEqual(chmod(ro + "/listed", 0o444), 0)
        defer { chmod(ro + "/locked", 0o755); chmod(ro + "/listed", 0o755) }
        let r = try runWithoutWriteAccess(ro, ["triage", ro, "--json"])
        XCTAssertEqual(r.status, 0, r.err)
        let rows = try r.out.split(separator: "\n").map { try XCTUnwrap(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        XCTAssertEqual(rows.map { $0["path"] as? String }, [ro + "/good.jsonl", ro + "/listed/t.jsonl", ro + "/locked"], r.out)
        guard rows.count == 3 else { return }
        for row in rows.dropFirst() {
            XCTAssertEqual(row["tags"] as? [String], ["unreadable"], "\(row)")
            XCTAssertTrue((row["unexplainable"] as? String)?.contains("Permission denied") == true, "\(row)")
        }
        XCTAssertTrue((rows[2]["unexplainable"] as? String)?.contains("a folder that cannot be read") == true, "\(rows[2])")
        XCTAssertTrue((rows[1]["unexplainable"] as? String)?.contains("cannot be examined") == true, "\(rows[1])")
        let summary = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.err.utf8)) as? [String: Any], r.err)
        XCTAssertEqual(summary["traces"] as? Int, 3)
        XCTAssertEqual(summary["readable"] as? Int, 1)
        let text = try runWithoutWriteAccess(ro, ["triage", ro, "--summary"])
        XCTAssertTrue(text.err.hasPrefix("Triaged 3 traces: 1 readable, 0 not a trace, 2 unreadable"), text.err)
        for command in [["explain", ro], ["check", ro]] {
            let w = try runWithoutWriteAccess(ro, command)
            XCTAssertTrue(w.err.contains("warning: \(ro)/locked: ") && w.err.contains("a folder that cannot be read (Permission denied)"), "\(command[0]): \(w.err)")
            XCTAssertTrue(w.err.contains("warning: \(ro)/listed/t.jsonl: ") && w.err.contains("cannot be examined (Permission denied)"), "\(command[0]): \(w.err)")
        }
    }

    /// A process with few file descriptors fails before any work with a clear error (74): with 4–6,
    /// `triage`, `check` and `explain` of a session's parts died with SIGILL (libdispatch's trap), and
    /// with 5 `explain` said the parts were "3 traces".
    func test_tooFewFileDescriptorsIsAClearErrorNeverATrap() {
        let session = CLI.root + "/traces/smeeting-session-weekly"
        for limit in [4, 5, 6, 12] {
            for command in [["triage", session], ["check", session], ["explain", session]] {
                let r = CLI.run(["-c", "ulimit -n \(limit) && exec \"$0\" \"$@\"", CLI.binary] + command, exe: "/bin/sh")
                XCTAssertEqual(r.status, 74, "ulimit -n \(limit) \(command[0]): \(r.err)")
                XCTAssertTrue(r.err.hasPrefix("Error: too many open files: only "), "ulimit -n \(limit) \(command[0]): \(r.err)")
                XCTAssertTrue(r.err.contains("(the limit, ulimit -n, is \(limit)); rtctrace needs 32"), r.err)
                XCTAssertEqual(r.out, "", "no work was done")
            }
        }
        let enough = CLI.run(["-c", "ulimit -n 64 && exec \"$0\" \"$@\"", CLI.binary, "explain", session], exe: "/bin/sh")
        XCTAssertTrue([0, 1].contains(enough.status), enough.err)
        XCTAssertFalse(enough.err.contains("too many open files"))
    }

    /// A file whose name is not UTF-8 (Latin-1 `café`) is found by folder walks, read, named on the
    /// command line, and shown escaped (`caf\xE9.jsonl`): it could not be opened, and `check` of a
    /// folder holding only it said "0 passed, 0 failed", exit 0.
    func test_nonUTF8FileNamesAreReadAndShownEscaped() {
        let t = dir + "/latin1"
        let setup = CLI.run(["-c", #"mkdir -p "$0" && cp "$1" "$0/$(printf 'caf\351.jsonl')" && cp "$2" "$0/$(printf 'caf\351.golden.json')""#,
                             t, CLI.root + "/traces/srtc-bluetooth-blocks-speaker.jsonl", CLI.root + "/traces/srtc-bluetooth-blocks-speaker.golden.json"],
                            exe: "/bin/sh")
        XCTAssertEqual(setup.status, 0, setup.err)
        let check = CLI.runInProcess(["check", t])
        XCTAssertEqual(check.status, 0, check.out + check.err)
        XCTAssertTrue(check.out.contains("PASS \(t)/caf\\xE9.jsonl (17 expectations, snapshot)"), check.out)
        XCTAssertTrue(check.out.contains("1 passed, 0 failed"), check.out)
        let verify = CLI.runInProcess(["verify", t])
        XCTAssertEqual(verify.status, 0, verify.out + verify.err)
        XCTAssertTrue(verify.out.contains("caf\\xE9.jsonl: OK (51 records"), verify.out)
        // Named on the command line (the bytes reach the process as they are).
        let explain = CLI.run(["-c", #"exec "$0" explain "$1/$(printf 'caf\351.jsonl')""#, CLI.binary, t], exe: "/bin/sh")
        XCTAssertEqual(explain.status, 1, explain.err)
        XCTAssertTrue(explain.out.hasPrefix("SRTC trace: \(t)/caf\\xE9.jsonl"), explain.out)
        let missing = CLI.run(["-c", #"exec "$0" info "$1/$(printf 'nope\377.jsonl')""#, CLI.binary, t], exe: "/bin/sh")
        XCTAssertEqual(missing.status, 64)
        XCTAssertTrue(missing.err.contains("nope\\xFF.jsonl: no such file"), missing.err)
        // Machine-readable outputs name it as text does: \xE9, never the scalar that stands for the byte
        // inside the tool (U+10FFE9, bytes F4 8F BF A9).
        let escaped = "caf\\xE9.jsonl"
        let inside = "caf\u{10FFE9}.jsonl"
        for (what, text) in [("triage", CLI.runInProcess(["triage", t]).out), ("check --json", CLI.runInProcess(["check", t, "--json"]).out),
                             ("explain --json", CLI.run(["-c", #"exec "$0" explain --json "$1/$(printf 'caf\351.jsonl')""#, CLI.binary, t], exe: "/bin/sh").out)] {
            XCTAssertFalse(text.contains(inside), what)
            XCTAssertTrue(text.contains(#"caf\\xE9.jsonl"#), "\(what): \(text.prefix(400))")
            let json = text.split(separator: "\n").first.map(String.init) ?? ""
            XCTAssertNotNil(try? JSONSerialization.jsonObject(with: Data(json.utf8)), what)
        }
        let junit = dir + "/junit.xml", html = dir + "/r.html"
        XCTAssertEqual(CLI.runInProcess(["check", t, "--junit", junit]).status, 0)
        XCTAssertEqual(CLI.run(["-c", #"exec "$0" report "$1/$(printf 'caf\351.jsonl')" -o "$2""#, CLI.binary, t, html], exe: "/bin/sh").status, 0)
        for file in [junit, html] {
            let text = (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
            XCTAssertFalse(text.contains(inside), file)
            XCTAssertTrue(text.contains(escaped), file)
        }
    }

    /// A review of a path that is not there is a usage error; it said "no pending snapshots", exit 0.
    func test_reviewingAMissingPathIsAUsageError() {
        for command in ["accept", "reject"] {
            let r = CLI.runInProcess([command, dir + "/nonexistent"])
            XCTAssertEqual(r.status, 64, "\(command): \(r.out) \(r.err)")
            XCTAssertTrue(r.err.contains("\(dir)/nonexistent: no such file or folder"), r.err)
            XCTAssertFalse(r.out.contains("no pending snapshots"))
        }
    }
}
