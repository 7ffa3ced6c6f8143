import TraceModel

/// Two engines as one (as The Composable Architecture's `CombineReducers` is itself a reducer): each
/// record, timer and end goes to `first`, then to `second`, and their outputs come out in that order.
/// Generic over the concrete engines, so a driver over it is specialised for them (no existential).
@usableFromInline package struct CombinedEngines<First: Engine, Second: Engine>: Sendable {
    /// The engine that reads each record first.
    @usableFromInline package var first: First
    /// The engine that reads it after.
    @usableFromInline package var second: Second
    /// Where `first` writes; what it wrote in the last step stays here when `outputsInPlace`.
    @usableFromInline package var firstSink = OutputSink<First.Output>(observed: false)
    /// Where `second` writes; what it wrote in the last step stays here when `outputsInPlace`.
    @usableFromInline package var secondSink = OutputSink<Second.Output>(observed: false)
    /// Whether each step leaves the engines' outputs in their own sinks (`firstSink`, then `secondSink`),
    /// for a driver that takes them where they are and empties both, rather than moving each into the
    /// combined sink (a copy and a wrapping per output).
    @usableFromInline package var outputsInPlace = false

    /// The two engines.
    @inlinable
    package init(_ first: First, _ second: Second) {
        self.first = first
        self.second = second
    }
}

/// An output of one of two combined engines.
@usableFromInline package enum CombinedOutput<First: Equatable & Sendable, Second: Equatable & Sendable>: Equatable, Sendable {
    case first(First)
    case second(Second)
}

extension CombinedEngines: Engine {
    @usableFromInline package typealias Output = CombinedOutput<First.Output, Second.Output>
    @usableFromInline package typealias TimerKind = CombinedOutput<First.TimerKind, Second.TimerKind>

    /// Both states.
    @usableFromInline package struct State: Equatable {
        /// The first engine's.
        @usableFromInline package var first: First.State
        /// The second engine's.
        @usableFromInline package var second: Second.State

        /// Both states.
        @inlinable
        package init(first: First.State, second: Second.State) {
            self.first = first
            self.second = second
        }
    }

    @inlinable
    package var state: State { State(first: first.state, second: second.state) }

    @inlinable
    package mutating func apply(_ record: ReplayRecord, in arena: ReplayArena, into sink: inout OutputSink<Output>) {
        prepare(sink)
        first.apply(record, in: arena, into: &firstSink)
        takeFirst(into: &sink)
        second.apply(record, in: arena, into: &secondSink)
        takeSecond(into: &sink)
    }

    @inlinable
    package mutating func fire(_ timer: EngineTimer<TimerKind>, into sink: inout OutputSink<Output>) {
        prepare(sink)
        switch timer.kind {
        case .first(let kind):
            first.fire(EngineTimer(due: timer.due, kind: kind), into: &firstSink)
            takeFirst(into: &sink)
        case .second(let kind):
            second.fire(EngineTimer(due: timer.due, kind: kind), into: &secondSink)
            takeSecond(into: &sink)
        }
    }

    @inlinable
    package mutating func finish(t: Int64, lastSeq: Int, end: TraceEnd, into sink: inout OutputSink<Output>) {
        prepare(sink)
        first.finish(t: t, lastSeq: lastSeq, end: end, into: &firstSink)
        takeFirst(into: &sink)
        second.finish(t: t, lastSeq: lastSeq, end: end, into: &secondSink)
        takeSecond(into: &sink)
    }

    @inlinable
    package static func role(of output: Output) -> EngineOutputRole<TimerKind> {
        switch output {
        case .first(let o): role(First.role(of: o)) { .first($0) }
        case .second(let o): role(Second.role(of: o)) { .second($0) }
        }
    }

    /// An engine's role of an output, with its timer's kind wrapped as the combined engine's.
    @inlinable
    package static func role<K>(_ r: EngineOutputRole<K>, _ wrap: (K) -> TimerKind) -> EngineOutputRole<TimerKind> {
        switch r {
        case .verdict(let v): .verdict(v)
        case .finding(let f): .finding(f)
        case .counted(let c): .counted(c)
        case .timer(let t): .timer(EngineTimer(due: t.due, kind: wrap(t.kind)))
        case let .outcome(callSeq, o): .outcome(callSeq: callSeq, o)
        case .recovered(let t): .recovered(t: t)
        case .event: .event
        }
    }

    @inlinable
    package var nextDeadline: (due: Int64, order: Int)? {
        switch (first.nextDeadline, second.nextDeadline) {
        case (let a?, let b?): (a.due, a.order) <= (b.due, b.order) ? a : b
        case (let a?, nil): a
        case (nil, let b?): b
        case (nil, nil): nil
        }
    }

    @inlinable
    package var nextDeadlineDue: Int64 { min(first.nextDeadlineDue, second.nextDeadlineDue) }

    @inlinable
    package mutating func closeDeadline(through t: Int64, into sink: inout OutputSink<Output>) -> EngineTimer<TimerKind>? {
        prepare(sink)
        // `second`'s next deadline is asked only where `first` has one due: an engine without deadlines
        // (the route engine) answers at once, and the one with them is asked once, by its own closing.
        if let a = first.nextDeadline, a.due <= t, second.nextDeadline.map({ (a.due, a.order) <= ($0.due, $0.order) }) ?? true {
            let timer = first.closeDeadline(through: t, into: &firstSink)
            takeFirst(into: &sink)
            return timer.map { EngineTimer(due: $0.due, kind: .first($0.kind)) }
        }
        let timer = second.closeDeadline(through: t, into: &secondSink)
        takeSecond(into: &sink)
        return timer.map { EngineTimer(due: $0.due, kind: .second($0.kind)) }
    }

    @inlinable
    package mutating func dropDeadlines() {
        first.dropDeadlines()
        second.dropDeadlines()
    }

    /// Each engine writes into its own sink with the combined one's settings; the order of what they set
    /// runs on from one to the next.
    @inlinable
    mutating func prepare(_ sink: OutputSink<Output>) {
        firstSink.observed = sink.observed
        firstSink.deadlinesAsTimers = sink.deadlinesAsTimers
        firstSink.keepsFindings = sink.keepsFindings
        firstSink.ordered = sink.ordered
        secondSink.observed = sink.observed
        secondSink.deadlinesAsTimers = sink.deadlinesAsTimers
        secondSink.keepsFindings = sink.keepsFindings
    }

    /// Moves what `first` wrote into `sink` (unless `outputsInPlace`). The timers it set take their places
    /// in the order of what is set before `second` sets its deadlines (an engine sets timers or deadlines,
    /// not both in one step).
    @inlinable
    mutating func takeFirst(into sink: inout OutputSink<Output>) {
        secondSink.ordered = Self.take(&firstSink, of: First.self, into: &sink, inPlace: outputsInPlace, as: Output.first)
    }

    /// Moves what `second` wrote into `sink` (unless `outputsInPlace`).
    @inlinable
    mutating func takeSecond(into sink: inout OutputSink<Output>) {
        _ = Self.take(&secondSink, of: Second.self, into: &sink, inPlace: outputsInPlace, as: Output.second)
    }

    /// Moves what engine `E` wrote in `own` into `sink` as `wrap` makes it a combined output, or, `inPlace`,
    /// leaves it where it is; either way counts the timers it set, which the order of what is set runs on
    /// past. Returns where that order now stands.
    @inlinable
    static func take<E: Engine>(_ own: inout OutputSink<E.Output>, of _: E.Type, into sink: inout OutputSink<Output>, inPlace: Bool,
                                as wrap: (E.Output) -> Output) -> Int {
        var ordered = own.ordered
        if !own.isEmpty {
            if inPlace {
                var i = 0
                while i < own.count {
                    if case .timer = E.role(of: own[i]) { ordered += 1 }
                    i += 1
                }
            } else {
                own.drain { o in
                    if case .timer = E.role(of: o) { ordered += 1 }
                    sink.append(wrap(o))
                }
            }
            own.ordered = ordered
        }
        sink.ordered = ordered
        return ordered
    }
}
