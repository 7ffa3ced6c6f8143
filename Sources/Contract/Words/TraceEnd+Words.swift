// What each way a trace can end is called in a sentence about it.

extension TraceEnd {
    /// "at the end of the trace" / "at the crash (where the trace is torn)".
    package var phrase: String {
        switch self {
        case .end: "at the end of the trace"
        case .crash: "at the crash (where the trace is torn)"
        }
    }

    /// "when the trace ended" / "when the trace ended at the crash (torn)".
    package var whenEnded: String {
        switch self {
        case .end: "when the trace ended"
        case .crash: "when the trace ended at the crash (torn)"
        }
    }

    /// "still open at the end of the trace" / "still open at the crash: the trace ends torn".
    package var stillOpen: String {
        switch self {
        case .end: "still open at the end of the trace"
        case .crash: "still open at the crash: the trace ends torn"
        }
    }

    /// "to the end of the trace" / "to the crash (where the trace is torn)".
    package var untilEnd: String {
        switch self {
        case .end: "to the end of the trace"
        case .crash: "to the crash (where the trace is torn)"
        }
    }
}
