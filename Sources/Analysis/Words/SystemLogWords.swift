import Contract
import TraceModel

/// What the device's system log adds to an explanation, in words (contract E1): which component changed
/// the session, what the system saw, who interrupted.
enum SystemLogWords {
    /// The component that changed the session when it was the app's own process.
    static let anotherComponentOfTheApp = "another component of the app"

    /// An activation of an audio session, the app's or the component's own.
    static func activatedSession(ofTheApp: Bool) -> String {
        "activated \(ofTheApp ? "the app's" : "its") audio session"
    }

    /// A property set on an audio session, the app's or the component's own.
    static func setProperty(_ summary: String, ofTheApp: Bool) -> String {
        "set \(summary) on \(ofTheApp ? "the app's" : "its") audio session"
    }

    /// The component that changed the session, what it did and when against the change at `seq`.
    static func componentChangedSession(_ component: String, isApp: Bool, did what: String, when: String, seq: Int) -> String {
        "the component is \(component)" + (isApp ? ": the app's process " : ", which ")
            + "\(what) \(when) the change (seq \(seq))"
    }

    /// What the system saw, at `t`, as record `seq`.
    static func systemSaw(_ saw: String, t: Int64, seq: Int) -> String {
        "what the system saw: " + saw + " at \(formatDuration(t)) (seq \(seq))"
    }

    /// The interruption's cause, named by the process that activated its session `when` the interruption.
    static func interruptedBy(_ cause: InterruptionCause, process: String, when: String, seq: Int) -> String {
        "\(interrupter(cause)): \(process) activated its audio session "
            + "\(when) the interruption (seq \(seq))"
    }

    /// Who interrupted, in words.
    static func interrupter(_ cause: InterruptionCause) -> String {
        switch cause {
        case .systemCall: "a system call"
        case .siri: "Siri"
        case .otherApp: "another app"
        case .unknown, .appWasSuspended, .unlisted: cause.rawValue
        }
    }

    /// An activation of the app's session that failed, with its error and the process controlling it.
    static func activationFailed(error: String?, controlledBy controlling: String?) -> String {
        "the app's session failed to activate (\(TextCap.clip(error ?? "no error given")))" + (controlling.map { ", controlled by \(TextCap.clip($0))" } ?? "")
    }

    /// CallKit's activation of the app's session.
    static let callKitActivated = "CallKit (\(SystemLogVocabulary.callKit)) activated the app's session"

    /// `340 ms before` / `at the time of` / `20 ms after` (a wall-clock record may lie just after).
    static func when(_ t: Int64, against subject: Int64) -> String {
        func span(_ ms: Int64) -> String { ms < 10_000 ? "\(ms) ms" : formatDuration(ms) }
        return t == subject ? "at the time of" : t < subject ? "\(span(subject - t)) before" : "\(span(t - subject)) after"
    }
}
