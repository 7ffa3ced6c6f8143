/// The report's colours: one table of every meaning a colour stands for on the timeline and the
/// graphs, with the words its legend gives it. Lanes, marks, markers and graph lines name a tone
/// (`LaneSegment.tone`, `LaneMark.tone`) and never a colour, the style sheet's colour rules and the
/// legend are generated from this table, and a test holds that no two tones look alike (CIE ΔE), so
/// no colour is reused for two meanings.
enum Palette {
    /// The legend's groups, in the order the legend lists them.
    enum Group: CaseIterable {
        case routes, states, quality, moments, calls, findings, divergences, graphs

        /// The group's heading in the legend.
        var title: String {
            switch self {
            case .routes: ReportPageWords.routesAndDevices
            case .states: "states"
            case .quality: "quality levels"
            case .moments: ReportPageWords.momentsOnTheLanes
            case .calls: "calls"
            case .findings: "findings"
            case .divergences: ReportPageWords.divergencesAndGaps
            case .graphs: "graphs"
            }
        }
    }

    /// One meaning and its colour.
    struct Tone {
        /// The style name lanes and markers use (`t-NAME` in the page), never trace text.
        let name: String
        /// `#rrggbb`.
        let colour: String
        /// The legend's words for it.
        let legend: String
        /// The legend group it is listed in.
        let group: Group
        /// How it is drawn: a filled stretch or glyph, or a line.
        let stroke: Bool

        init(_ name: String, _ colour: String, _ legend: String, _ group: Group, stroke: Bool = false) {
            self.name = name
            self.colour = colour
            self.legend = legend
            self.group = group
            self.stroke = stroke
        }
    }

    /// Every tone of the page, in legend order.
    static let tones: [Tone] = [
        Tone("speaker", "#9ecae9", "speaker", .routes),
        Tone("receiver", "#a1d99b", "receiver (earpiece)", .routes),
        Tone("bluetooth", "#cdb5ee", "bluetooth", .routes),
        Tone("headset", "#7fd3d6", "wired headset", .routes),
        Tone("airplay", "#f7b6d2", "AirPlay", .routes),
        Tone("carAudio", "#d9c27e", "car audio", .routes),
        Tone("unknown", "#c7c7c7", ReportPageWords.unknownRouteDeviceKindOrQuality, .routes),

        Tone("quiet", "#f3f4f6", ReportPageWords.restingNotJoinedNoSessionNo, .states),
        Tone("on", "#fde0b6", ReportPageWords.upJoinedCallSessionActiveCallkit, .states),
        Tone("sessionOther", "#c7a78f", ReportPageWords.sessionActiveInACategoryOther, .states),
        Tone("alert", "#fb9a7a", ReportPageWords.heldBackInterruptedSystemCallUp, .states),
        Tone("merged", "#7d8799", ReportPageWords.manyShortChangesMergedHoverFor, .states),

        Tone("q-excellent", "#3f9b52", "excellent", .quality),
        Tone("q-good", "#d4ea6b", "good", .quality),
        Tone("q-poor", "#f4a259", "poor", .quality),
        Tone("q-lost", "#b8323a", "lost", .quality),

        Tone("activated", "#2ca02c", ReportPageWords.sessionActivatedObsSessionactivatedOkCallkit, .moments),
        Tone("deactivated", "#4e79a7", "session deactivated (obs.sessionDeactivated, CallKit didDeactivate)", .moments),
        Tone("failed", "#ff1f3d", ReportPageWords.failedActivationOrDeactivationNotOk, .moments),
        Tone("callkit", "#7b3fbf", ReportPageWords.callkitActionAnswerStartEndHold, .moments),
        Tone("reset", "#8c564b", ReportPageWords.mediaServicesReset, .moments),
        Tone("interruption", "#ff7f0e", ReportPageWords.interruptionBeganOrEndedOsWith, .moments),
        Tone("sdkInterrupted", "#e377c2", ReportPageWords.sdkCallbackInterrupted, .moments),
        Tone("sdkRecovered", "#17becf", ReportPageWords.sdkCallbackRecovered, .moments),
        Tone("sdkOther", "#6b6b6b", ReportPageWords.sdkCallbackCallStateQualityChange, .moments),
        Tone("speakersAnswer", "#a6a60c", "SDK active-speaker snapshot", .moments),
        Tone("overridePort", "#1b2a6b", ReportPageWords.theSdkSetTheOutputPort, .moments),
        Tone("systemOther", "#fc01fd", ReportPageWords.systemLogAnotherProcessSSession, .moments),
        Tone("systemSelf", "#6128ff", ReportPageWords.systemLogTheAppSOwn, .moments),
        Tone("flush", "#111111", ReportPageWords.overrideFlushedByIosRouteOverrideflushed, .moments),
        Tone("levelChange", "#b07aa1", ReportPageWords.qualityLevelChangeQ, .moments, stroke: true),
        Tone("reconnect", "#0b6e69", "reconnect (Q7)", .moments, stroke: true),

        Tone("v-applied", "#0d5c2b", ReportPageWords.tookEffectAppliedADeferredCall, .calls),
        Tone("v-noop", "#9e9e9e", ReportPageWords.changedNothingNoop, .calls),
        Tone("v-deferred", "#f9d71c", "deferred", .calls),
        Tone("v-ineffective", "#d6336c", ReportPageWords.didNotTakeEffectIneffectiveSuperseded, .calls),
        Tone("v-rejected", "#4a1486", "rejected", .calls),
        Tone("cause", "#4e342e", ReportPageWords.theRecordThatCausedACall, .calls, stroke: true),

        Tone("s-error", "#e53935", "error", .findings),
        Tone("s-warning", "#a86400", "warning", .findings),
        Tone("s-info", "#4c9be8", "info", .findings),

        Tone("div-unexplained", "#a50f15", ReportPageWords.unexplainedDivergencePredictedAndActualRoute, .divergences),
        Tone("div-explained", "#e8b923", "explained divergence (X3)", .divergences),
        Tone("div-unknown-start", "#37474f", ReportPageWords.divergenceFromAnUnknownStartState, .divergences),

        Tone("pub", "#1f5fbf", ReportPageWords.pubTheUserSOwnUplink, .graphs, stroke: true),
        Tone("sub", "#d9480f", ReportPageWords.subTheDownlinkOrTheRemote, .graphs, stroke: true),
    ]

    /// The tone named `name`.
    static func tone(_ name: String) -> Tone? { byName[name] }

    private static let byName: [String: Tone] = Dictionary(uniqueKeysWithValues: tones.map { ($0.name, $0) })

    /// The style sheet's colour rules: a variable per tone (`--t-NAME`, which the hand-written rules for
    /// markers and cards use), fills for stretches and glyphs, strokes for lines, and swatches.
    static let css: String = {
        var o = ":root {"
        for t in tones { o += " --t-\(t.name): \(t.colour);" }
        o += " }\n"
        for t in tones {
            let c = t.colour
            o += ".t-\(t.name) { fill: \(c); } .line.t-\(t.name), .vline.t-\(t.name) { stroke: \(c); fill: none; } "
            o += ".swatch.t-\(t.name) { background: \(c); }\n"
        }
        return o
    }()

    /// The legend: every tone by group, then the no-data hatching.
    static func legend() -> String {
        var o = "<div class=\"legend\" id=\"legend\">\n"
        for g in Group.allCases {
            let members = tones.filter { $0.group == g }
            guard !members.isEmpty else { continue }
            o += "<ul class=\"legend\"><li class=\"group\">\(HTMLEscape.text(g.title)):</li>"
            for t in members {
                o += "<li><span class=\"swatch\(t.stroke ? " line" : "") t-\(t.name)\"></span>\(HTMLEscape.text(t.legend))</li>"
            }
            if g == .divergences { o += "<li><span class=\"swatch nodata\"></span>no records (no data)</li>" }
            o += "</ul>\n"
        }
        o += "</div>\n"
        return o
    }
}
