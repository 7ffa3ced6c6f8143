import TraceModel

/// Traces built to cost a reader as much as the format allows: few records with lines near the reader's
/// line limit (what made `export`, `diff`, `explain` and `triage` hold every long string), large
/// speaker sets updated whole (what made speaker updates cost the square of the set), speaker floods of
/// long uids (what made the Chrome export amplify), and zstd window bombs (what made `triage --jobs N`
/// hold N windows). Tests check the
/// guarantees on them and `make bench` measures peak memory and speaker-update scaling on them
/// (docs/reliability.md). Each is a sequence produced record by record: a trace of 60 records of 15 MB
/// holds one copy of the long text, shared by every record.
package enum HostileTraces {
    /// The shapes, by name (`rtctrace-bench hostile NAME …`).
    package enum Shape: String, CaseIterable, Sendable {
        /// A call, then `count` `sdk.log` records of `bytes` each, one a millisecond.
        case longLogs
        /// The same, every log in one millisecond (the replay holds the SDK records of a millisecond
        /// until the other records of it are taken).
        case longLogsInOneMillisecond
        /// A call, a device whose id and name are `bytes` long, then `count` route calls, route changes
        /// and SDK errors carrying a `bytes`-long text: strings a replay keeps in its state, its findings
        /// and the records reports point at.
        case longKeptStrings
    }

    /// The header every hostile trace starts with.
    package static func header(_ layer: Layer = .srtc) -> Record {
        Record(seq: 0, t: 0, .header(TraceHeader(layer: layer, sdk: "SRTC 4.6.2",
                                                 device: .init(model: "iPhone15,2", os: "iOS 17.4", simulator: false))))
    }

    /// The records of `shape`: `count` long records of `bytes` bytes of text each, after a header and a
    /// join; seqs consecutive from 0.
    package static func records(_ shape: Shape, count: Int, bytes: Int) -> AnySequence<Record> {
        let text = String(repeating: "x", count: max(bytes, 1))
        let prologue = [header(), Record(seq: 1, t: 10, .joinChannel(channel: "hostile"))]
        switch shape {
        case .longLogs, .longLogsInOneMillisecond:
            let sameT = shape == .longLogsInOneMillisecond
            let logs = (0..<max(count, 0)).lazy.map { i in
                Record(seq: 2 + i, t: sameT ? 100 : Int64(100 + i), .sdkLog(level: "info", message: text))
            }
            return chain(prologue, logs)
        case .longKeptStrings:
            let device = Record(seq: 2, t: 50, .deviceConnected(id: "bt-" + text, kind: .bluetooth, name: text, port: text))
            let calls = (0..<max(count, 0)).lazy.flatMap { i -> [Record] in
                let seq = 3 + 3 * i, t = Int64(100 + 10 * i)
                return [
                    Record(seq: seq, t: t, .setRoute(target: i % 2 == 0 ? .speaker : .earpiece, api: text)),
                    Record(seq: seq + 1, t: t + 1, .routeSnapshot(route: .speaker, ports: [text])),
                    Record(seq: seq + 2, t: t + 2, .sdkError(api: text, error: text)),
                ]
            }
            return chain(prologue + [device], calls)
        }
    }

    /// A session's speaker set of `speakers` members updated whole `updates` times (every member's level
    /// changes, so each moves in the order), after a header, the SFU engine and a join: what makes an
    /// update's cost show its dependence on the set's size. Seqs consecutive from 0, one update every 100 ms.
    package static func speakerChurn(updates: Int, speakers: Int) -> AnySequence<Record> {
        let prologue = [header(), Record(seq: 1, t: 1, .connEngine(vendor: .seaStart)), Record(seq: 2, t: 2, .joinChannel(channel: "churn"))]
        let uids = (0..<max(speakers, 0)).map { "u\($0)" }
        let churn = (0..<max(updates, 0)).lazy.map { u in
            Record(seq: 3 + u, t: Int64(1_000 + 100 * u), .speakers(
                speaking: uids.indices.map { i in Speaker(uid: uids[i], trackId: "mic", level: Double((i &* 7_919 &+ u &* 104_729) % 1_000) / 1_000) },
                stopped: []))
        }
        return chain(prologue, churn)
    }

    /// A speaker flood: `updates` server speaker updates, each naming one new speaker whose uid is
    /// `uidBytes` long, so the active set grows by one each time (after a header, the SFU engine and a
    /// join). With 5 000 updates of 1 KiB uids the trace is some 25 KB compressed, and every state label
    /// that listed eight uids whole made the Chrome export 89 MB (328 MiB of memory); 10 000, 352 MB.
    package static func speakerFlood(updates: Int, uidBytes: Int) -> AnySequence<Record> {
        let prologue = [header(), Record(seq: 1, t: 1, .connEngine(vendor: .seaStart)), Record(seq: 2, t: 2, .joinChannel(channel: "flood"))]
        let pad = String(repeating: "x", count: max(0, uidBytes - 8))
        let flood = (0..<max(updates, 0)).lazy.map { u in
            let digits = String(u)
            let uid = "u" + String(repeating: "0", count: max(0, 7 - digits.count)) + digits + pad
            return Record(seq: 3 + u, t: Int64(1_000 + 100 * u), .speakers(speaking: [Speaker(uid: uid, trackId: "mic", level: 0.5)], stopped: []))
        }
        return chain(prologue, flood)
    }

    /// A zstd window bomb, a few KB: one frame that declares a 128 MiB window (2^27, the readers' limit),
    /// holds a header line, then `outputBytes` of `x` as run-length blocks (4 bytes for each 128 KiB).
    /// Decoding it fills the whole window: each reader that decodes one holds 128 MiB.
    package static func windowBomb(outputBytes: Int = 130 << 20) -> [UInt8] {
        var out: [UInt8] = [0x28, 0xB5, 0x2F, 0xFD, 0x00, 17 << 3]
        func block(last: Bool, type: UInt32, size: Int) {
            let h = UInt32(last ? 1 : 0) | type << 1 | UInt32(size) << 3
            out += [UInt8(h & 0xFF), UInt8(h >> 8 & 0xFF), UInt8(h >> 16 & 0xFF)]
        }
        let line = Array((header().jsonLine + "\n").utf8)
        let runs = max(1, outputBytes / (128 << 10))
        block(last: false, type: 0, size: line.count)
        out += line
        for i in 0..<runs {
            block(last: i == runs - 1, type: 1, size: 128 << 10)
            out.append(UInt8(ascii: "x"))
        }
        return out
    }

    /// `first`, then `rest`, produced one record at a time.
    static func chain(_ first: [Record], _ rest: some Sequence<Record>) -> AnySequence<Record> {
        AnySequence { () -> AnyIterator<Record> in
            var a = first.makeIterator(), b = rest.makeIterator()
            return AnyIterator { a.next() ?? b.next() }
        }
    }

    /// A header, one log and `calls` route calls whose target is not a route (`"bogus"`): JSON Lines in
    /// which all but two records are undecodable.
    package static func undecodableCalls(_ calls: Int) -> String {
        var lines = [header().jsonLine, Record(seq: 1, t: 5, .sdkLog(level: "info", message: "started")).jsonLine]
        for i in 0..<max(calls, 0) { lines.append(#"{"seq":\#(i + 2),"t":\#(10 + i),"type":"api.setRoute","target":"bogus"}"#) }
        return lines.joined(separator: "\n") + "\n"
    }
}
