import TraceModel

/// The two sessions `make bench` reads against `zstd -dc`: deterministic, any length, from a seed.
///
/// - `stress`: every record type of the format. The steady state of `Synth` (quality, speakers, SDK
///   snapshots and logs, device and route traffic in `videoChat`, so divergences and ineffective calls
///   run all the way through) with an episode of the rarer types every few hundred records: interruptions
///   and the system's call states, CallKit, the app going to the background, layer switches, the audio
///   module, the transport, media-services resets, session deactivations, dropped ranges, checkpoints,
///   the default route and the output override, SDK errors and quality changes, leaving and rejoining.
/// - `healthy`: a call that goes well: quality reports, speaker updates, SDK speaker snapshots and logs
///   after the prologue, and no route traffic at all.
package struct BenchSession {
    /// Which session.
    package enum Kind: String, CaseIterable, Sendable {
        case stress, healthy
    }

    /// The session made.
    package let kind: Kind
    var synth: Synth
    var queue: [RecordBody] = []
    var queueHead = 0
    var prologueLeft: [RecordBody]
    var episode = 0
    var sinceEpisode = 0

    /// A generator; the same kind and seed give the same records.
    package init(_ kind: Kind, seed: UInt64 = 42) {
        self.kind = kind
        synth = Synth(seed: seed)
        prologueLeft = synth.prologue()
    }

    /// The next record with its seq and time.
    package mutating func nextRecord() -> Record {
        if !prologueLeft.isEmpty {
            let b = prologueLeft.removeFirst()
            defer { synth.seq += 1; synth.t += 1 }
            return Record(seq: synth.seq, t: synth.t, b)
        }
        switch kind {
        case .stress: return stressRecord()
        case .healthy: return healthyRecord()
        }
    }

    // MARK: - Healthy

    mutating func healthyRecord() -> Record {
        defer { synth.seq += 1 }
        if queueHead < queue.count {
            // The SDK's snapshot answers each server update within a few tens of ms (S3).
            let b = queue[queueHead]
            queueHead += 1
            if queueHead == queue.count { queue.removeAll(keepingCapacity: true); queueHead = 0 }
            synth.t += Int64(10 + synth.int(40))
            return Record(seq: synth.seq, t: synth.t, b)
        }
        synth.t += Int64(50 + synth.int(300))
        let r = synth.int(1000)
        let body: RecordBody
        switch r {
        case 0..<500:
            // A steady network: the level moves between good and excellent every few minutes at most.
            if synth.int(2000) == 0 { synth.level = synth.level == .good ? .excellent : .good }
            body = .qualityReport(pub: synth.sample(synth.level), sub: synth.sample(synth.level))
        case 500..<850:
            body = synth.speakerUpdate()
            queue.append(synth.activeSpeakers())
        default:
            body = .sdkLog(level: synth.int(20) == 0 ? "debug" : "info",
                           message: "rtp stats ssrc=\(synth.int(1 << 30)) nack=\(synth.int(40)) pli=\(synth.int(3))")
        }
        return Record(seq: synth.seq, t: synth.t, body)
    }

    // MARK: - Stress

    /// Records between two episodes of the rarer types.
    static let episodeEvery = 400

    mutating func stressRecord() -> Record {
        if queueHead < queue.count {
            let b = queue[queueHead]
            queueHead += 1
            if queueHead == queue.count { queue.removeAll(keepingCapacity: true); queueHead = 0 }
            defer { synth.seq += 1 }
            synth.t += Int64(10 + synth.int(40))
            return Record(seq: synth.seq, t: synth.t, b)
        }
        sinceEpisode += 1
        if sinceEpisode >= Self.episodeEvery, synth.pending.isEmpty {
            sinceEpisode = 0
            queue = nextEpisode()
            episode += 1
            return stressRecord()
        }
        if synth.pending.isEmpty, synth.int(100) == 0 {
            // The SDK's own quality callback, a few times a minute.
            defer { synth.seq += 1 }
            synth.t += Int64(50 + synth.int(300))
            let levels: [QualityLevel] = [.excellent, .good, .poor, .lost, .unknown]
            return Record(seq: synth.seq, t: synth.t,
                          .sdkQualityChanged(overall: levels[synth.int(5)], previous: levels[synth.int(5)],
                                             mos: synth.int(3) == 0 ? nil : synth.round2(1 + synth.unit() * 3.5)))
        }
        return synth.nextRecord()
    }

    /// The next episode of the rarer record types, in turn.
    mutating func nextEpisode() -> [RecordBody] {
        let session = SessionActivation(ok: true, category: "playAndRecord", mode: "videoChat",
                                        options: ["allowBluetooth", "allowBluetoothA2DP", "defaultToSpeaker"])
        let n = episode
        let callId = "call-\(n % 97)"
        switch n % 12 {
        case 0:
            return [.interruptionBegan(cause: .systemCall, wasSuspended: false), .sdkInterrupted, .callState(state: .incoming),
                    .callState(state: .connected), .sdkCallStateChanged(state: .connected), .callState(state: .disconnected),
                    .sdkCallStateChanged(state: .idle), .interruptionEnded(shouldResume: true), .sessionActivated(session), .sdkRecovered]
        case 1:
            return [.appState(state: .background), .sdkLog(level: "warn", message: BenchWords.backgroundWithAudio),
                    .appState(state: .foreground)]
        case 2:
            return [.callKit(event: .start, callId: callId), .callKit(event: .didActivate, callId: callId),
                    .callKit(event: .hold, callId: callId), .callKit(event: .unhold, callId: callId),
                    .callKit(event: .end, callId: callId), .callKit(event: .didDeactivate, callId: callId)]
        case 3:
            let to = ["cam-u2-h", "cam-u2-m", "cam-u2-l"][n % 3]
            return [.switchLayer(pubUid: "u2", trackId: "cam-u2", targetTrackId: to),
                    .srvLayerSwitched(LayerSwitch(pubUid: "u2", trackId: "cam-u2", fromTrackId: "cam-u2-h", toTrackId: to,
                                                  reason: n % 2 == 0 ? "client" : "bwe_down", latencyMs: Double(80 + n % 50))),
                    .sdkLayerSwitched(LayerSwitch(pubUid: "u2", trackId: "cam-u2", toTrackId: to, reason: "client"))]
        case 4:
            return [.setAudioModuleEnabled(enabled: false), .setRoute(target: .speaker, api: "setAudioRoute(.speaker)"),
                    .setAudioModuleEnabled(enabled: true)]
        case 5:
            return [.setDefaultRoute(target: n % 2 == 0 ? .speaker : .earpiece), .overrideOutput(port: .speaker),
                    .overrideOutput(port: .none)]
        case 6:
            return [.connState(state: .reconnecting), .sdkError(api: "setAudioRoute", error: BenchWords.transportNotReady),
                    .connState(state: .connected)]
        case 7:
            return [.mediaServicesReset, .sessionActivated(session), .routeChanged(route: .speaker, previousRoute: .unknown, reason: .categoryChange)]
        case 8:
            return [.sessionDeactivated(notifyOthers: true, ok: n % 3 != 0, error: n % 3 != 0 ? nil : "'!act' session busy"),
                    .sessionActivated(session)]
        case 9:
            let t = synth.t
            return [.dropped(count: 3 + n % 20, fromT: max(0, t - 200), toT: t), .micPermission(status: .granted)]
        case 10:
            return [.checkpoint(TraceCheckpoint(defaultRoute: .speaker, override: synth.override, engaged: true,
                                                micPermission: .granted,
                                                devices: synth.bluetooth ? [.init(id: "bt-1", kind: .bluetooth, name: "AirPods Pro", port: "BluetoothHFP")] : [],
                                                currentRoute: synth.route, callState: .idle, appState: .foreground,
                                                transport: .init(engine: .seaStart, state: .connected),
                                                session: .init(category: "playAndRecord", mode: "videoChat", options: session.options)))]
        default:
            return [.exitMeeting, .enterMeeting(room: "weekly-sync"), .leaveChannel, .joinChannel(channel: "side-\(n % 5)"),
                    .connEngine(vendor: .seaStart), .connState(state: .connected),
                    .subscribe(pubUid: "u2", trackId: "cam-u2", layers: ["cam-u2-h", "cam-u2-m", "cam-u2-l"])]
        }
    }
}

extension Synth {
    /// A speaker starting or stopping (at most four at once).
    mutating func speakerUpdate() -> RecordBody {
        let uid = "u\(int(8))"
        if (int(3) == 0 || speaking.count >= 4), !speaking.isEmpty {
            let s = speaking.remove(at: int(speaking.count))
            return .speakers(speaking: [], stopped: [s.key])
        }
        let s = Speaker(uid: uid, trackId: "mic-\(uid)", level: round2(unit()))
        speaking.removeAll { $0.key == s.key }
        speaking.append(s)
        return .speakers(speaking: [s], stopped: [])
    }

    /// The SDK's snapshot of who speaks, loudest first.
    func activeSpeakers() -> RecordBody {
        .sdkActiveSpeakers(speakers: speaking.sorted { $0.level != $1.level ? $0.level > $1.level : $0.key < $1.key })
    }
}
