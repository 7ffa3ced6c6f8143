import Contract
import TraceModel

// The session.* findings: the audio session as the SDK configured, activated and rebuilt it (R11, R12, R17,
// R18, I5), phrased in `FindingWords+Session.swift`.
extension RouteEngine {
    /// `obs.sessionDeactivated` without `notifyOthers`.
    func missingNotifyOthersFinding(_ record: Record) -> Finding {
        Finding(code: .sessionMissingNotifyOthers, severity: .warning, rule: nil, seqs: [record.seq], t: record.t,
                FindingWords.missingNotifyOthers(seq: record.seq, words))
    }

    /// A call session without `allowBluetooth` (R4's bluetooth route is then never used).
    func missingAllowBluetoothFinding(_ record: Record) -> Finding {
        Finding(code: .sessionMissingAllowBluetooth, severity: .warning, rule: .R11, seqs: [record.seq], t: record.t,
                FindingWords.missingAllowBluetooth(seq: record.seq))
    }

    /// A call session without `defaultToSpeaker` while the persistent default is the speaker.
    func missingDefaultToSpeakerFinding(_ record: Record) -> Finding {
        Finding(code: .sessionMissingDefaultToSpeaker, severity: .warning, rule: .R11,
                seqs: seqs(record.seq, state.defaultSeq), t: record.t,
                FindingWords.missingDefaultToSpeaker(seq: record.seq))
    }

    /// A call session whose mode has no echo cancellation.
    func wrongModeFinding(_ mode: String?, _ record: Record) -> Finding {
        Finding(code: .sessionWrongMode, severity: .warning, rule: nil, seqs: [record.seq], t: record.t,
                FindingWords.wrongMode(mode, seq: record.seq))
    }

    /// R12: a route change that nothing the SDK or the system recorded accounts for.
    func changedByOtherComponentFinding(_ record: Record, route: Route, reason: RouteChangeReason,
                                        predicted: Route) -> Finding {
        Finding(code: .sessionChangedByOtherComponent, severity: .warning, rule: .R12, seqs: [record.seq], t: record.t,
                FindingWords.changedByOtherComponent(route: route, reason: reason, predicted: predicted, seq: record.seq,
                                                     window: options.matchWindowMs, words))
    }

    /// I5: no successful activation within the recovery window after a media services reset.
    func notRebuiltFinding(resetSeq: Int, t: Int64) -> Finding {
        Finding(code: .sessionNotRebuiltAfterReset, severity: .error, rule: .I5, seqs: [resetSeq], t: t,
                FindingWords.notRebuiltAfterReset(resetSeq: resetSeq, window: options.recoveryWindowMs, words))
    }

    /// R17: the call path did not come up.
    func callPathNotUpFinding(_ window: CallPathWindow, t: Int64) -> Finding {
        let failure: FindingWords.CallPathFailure
        if let other = window.otherCategory {
            failure = .otherCategory(other)
        } else if let error = window.lastError {
            failure = .failed(error)
        } else {
            failure = .noActivation
        }
        return Finding(code: .sessionCallPathNotUp, severity: .error, rule: .R17, seqs: [window.seq], t: t,
                       FindingWords.callPathNotUp(seq: window.seq, afterRecovery: window.afterRecovery, failure,
                                                  window: options.recoveryWindowMs, words))
    }

    /// R18: the session was not deactivated at the leave or exit.
    func notDeactivatedFinding(_ window: DeactivationWindow, t: Int64) -> Finding {
        Finding(code: .sessionNotDeactivated, severity: .warning, rule: .R18, seqs: [window.seq], t: t,
                FindingWords.notDeactivated(seq: window.seq, lastError: window.lastError, window: options.recoveryWindowMs, words))
    }
}
