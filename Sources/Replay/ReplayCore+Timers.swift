import Contract
import QualityEngine
import RouteEngine
import TraceModel

// The engines' timers and deadlines, delivered at their due time in the order they were set.
extension ReplayCore {
    /// Drops every timer and deadline unfired (what they waited for is gone).
    mutating func dropTimers() {
        timers.removeAll()
        engines.dropDeadlines()
    }

    /// Fires the timers and closes the deadlines due at or before `t`, in due order (and, due at the same
    /// time, in the order they were set). Nearly every record finds nothing due: that test is inlined where
    /// it is asked, and reads only the due times.
    @inline(__always)
    mutating func fireTimers(through t: Int64) {
        if timers.nextDueOrMax <= t || engines.nextDeadlineDue <= t { fireDue(through: t) }
    }

    /// `fireTimers`, once something is due at or before `t`.
    mutating func fireDue(through t: Int64) {
        while true {
            let timer = timers.next, deadline = engines.nextDeadline
            if let d = deadline, d.due <= t, timer.map({ d.due != $0.due ? d.due < $0.due : d.order < $0.order }) ?? true {
                closeDeadline(through: t, due: d.due)
            } else if let timer, timer.due <= t {
                fireTimer(through: t)
            } else {
                return
            }
        }
    }

    /// Closes the engines' next deadline, due at or before `t`: the step its timer made. Without an
    /// observer the divergence tracker is asked only what can have changed for it.
    mutating func closeDeadline(through t: Int64, due: Int64) {
        now = max(now, due)
        let step = newStep(t: due)
        if observing || divergences.mayCount(at: due) {
            divergences.advance(to: due, into: &tracked)
            handleTracked(into: step)
        }
        step?.before = snapshot()
        prepareSink()
        let timer = engines.closeDeadline(through: t, into: &sink)
        if let timer { step?.value.timer = Self.replayTimer(timer.kind) }
        absorb(into: step)
        if observing || divergences.predictionMayMatter(revision: engines.first.revision) {
            notePrediction(t: due, seq: nil)
            handleTracked(into: step)
        }
        guard let observer, let step, let before = step.before else { return }
        step.value.settle(from: before, to: snapshot())
        observer(step.value)
    }

    /// Fires the next timer of the queue, due at or before `t`.
    mutating func fireTimer(through t: Int64) {
        guard let (due, timer) = timers.popDue(through: t) else { return }
        now = max(now, due)
        let step = newStep(t: due)
        divergences.advance(to: due, into: &tracked)
        handleTracked(into: step)
        step?.before = snapshot()
        step?.value.timer = Self.replayTimer(timer)
        prepareSink()
        engines.fire(EngineTimer(due: due, kind: timer), into: &sink)
        absorb(into: step)
        notePrediction(t: due, seq: nil)
        handleTracked(into: step)
        guard let observer, let step, let before = step.before else { return }
        step.value.settle(from: before, to: snapshot())
        observer(step.value)
    }

    /// A timer of one of the engines, as a step names it.
    static func replayTimer(_ kind: Engines.TimerKind) -> ReplayTimer {
        switch kind {
        case .first(let k): .route(k)
        case .second(let k): .quality(k)
        }
    }
}
