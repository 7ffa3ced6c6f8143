import TraceModel

/// Where an engine writes what one record, timer or end produced: owned by the driver and emptied, not
/// freed, before each step, so a step allocates nothing once the sink has grown to the largest step.
/// An output only an observer reads (a step of the `replay` timeline) is written only when `observed`.
@usableFromInline package struct OutputSink<Output> {
    @usableFromInline var items: [Output] = []
    /// Whether someone observes the steps: outputs that only describe a step are written only then.
    @usableFromInline package var observed: Bool
    /// Whether the deadlines of windows of fixed length are written as timers to deliver back (a driver
    /// with one queue of timers, as the tests' store is), rather than kept by the engine in its own list
    /// and closed by the driver as its clock passes them (`Deadlines`).
    @usableFromInline package var deadlinesAsTimers: Bool
    /// The driver's count of timers and deadlines set so far: a deadline's place among them, so that what
    /// falls due at the same time closes in the order it was set.
    @usableFromInline package var ordered = 0
    /// Whether a finding written now may be kept: false once the driver keeps no more findings (its cap)
    /// and nobody observes the steps; a finding a trace raises at a high rate is then counted, not built
    /// (`finding(_:seq:t:_:)`).
    @usableFromInline package var keepsFindings = true

    /// An empty sink; `observed` says whether outputs that only describe a step are wanted.
    @inlinable
    package init(observed: Bool = true, deadlinesAsTimers: Bool = false) {
        self.observed = observed
        self.deadlinesAsTimers = deadlinesAsTimers
    }

    /// The order of the next timer or deadline set.
    @inlinable
    package mutating func nextOrder() -> Int {
        ordered += 1
        return ordered
    }

    /// Adds an output.
    @inlinable
    package mutating func append(_ output: Output) { items.append(output) }

    /// Whether nothing was written.
    @inlinable
    package var isEmpty: Bool { items.isEmpty }

    /// How many outputs were written.
    @inlinable
    package var count: Int { items.count }

    /// The output written `i`-th.
    @inlinable
    package subscript(i: Int) -> Output { items[i] }

    /// The outputs written, in order.
    @inlinable
    package var outputs: [Output] { items }

    /// Empties the sink, keeping its storage: one output at a time from the end, as a sink holds one to
    /// three outputs and `removeAll(keepingCapacity:)` costs ten times as much for so few (it replaces a range).
    @inlinable
    package mutating func removeAll() { while !items.isEmpty { items.removeLast() } }

    /// Calls `body` with each output in order, then empties the sink (its storage kept).
    @inlinable
    package mutating func drain(_ body: (Output) throws -> Void) rethrows {
        guard !items.isEmpty else { return }
        defer { removeAll() }
        for o in items { try body(o) }
    }
}

extension OutputSink: Sendable where Output: Sendable {}

/// A finding its driver keeps no more and nobody observes: its code, deciding record and time, counted
/// instead of built.
@usableFromInline package struct FindingCount: Equatable, Sendable {
    /// The finding's code.
    @usableFromInline package var code: FindingCode
    /// The record it names first.
    @usableFromInline package var seq: Int?
    /// When it was raised.
    @usableFromInline package var t: Int64

    /// Creates a count.
    @inlinable
    package init(code: FindingCode, seq: Int?, t: Int64) {
        self.code = code
        self.seq = seq
        self.t = t
    }
}

/// An engine's output type that carries findings, built or counted.
@usableFromInline package protocol FindingOutput {
    /// A finding.
    static func finding(_ finding: Finding) -> Self
    /// A finding counted, not built.
    static func counted(_ count: FindingCount) -> Self
}

extension OutputSink where Output: FindingOutput {
    /// Writes the finding `build` makes, or only its count when it would not be kept (`keepsFindings`).
    @inlinable
    package mutating func finding(_ code: FindingCode, seq: Int?, t: Int64, _ build: () -> Finding) {
        if keepsFindings {
            append(.finding(build()))
        } else {
            append(.counted(FindingCount(code: code, seq: seq, t: t)))
        }
    }
}

/// A timer an engine asks its driver to deliver back through `Engine.fire(_:)` at `due`: the one timer
/// type of every engine (each engine has its own `Kind`).
@usableFromInline package struct EngineTimer<Kind: Equatable & Sendable>: Equatable, Sendable {
    /// When it fires (ms since the trace started); a timer due at or before a record's `t` fires before it.
    @usableFromInline package var due: Int64
    /// What it is for; each kind carries the records it belongs to, so a stale timer does nothing.
    @usableFromInline package var kind: Kind

    /// Creates a timer.
    @usableFromInline package init(due: Int64, kind: Kind) {
        self.due = due
        self.kind = kind
    }
}

/// An engine of the contract: a pure reducer over records. Time comes only from records' `t` and the
/// timers it asks for; its outputs are data (verdicts, findings, timers, derived events), never effects.
@usableFromInline package protocol Engine: Sendable {
    /// The engine's whole state.
    associatedtype State: Equatable
    /// What its timers are for.
    associatedtype TimerKind: Equatable & Sendable
    /// What a step returns.
    associatedtype Output: Equatable & Sendable

    /// The current state.
    var state: State { get }
    /// Applies one record of any type (the ones the engine does not read give nothing), writing what it
    /// caused into `sink`; `arena` holds what the record refers to (its lists, the replay's strings).
    mutating func apply(_ record: ReplayRecord, in arena: ReplayArena, into sink: inout OutputSink<Output>)
    /// Delivers a timer the engine asked for, at its due time.
    mutating func fire(_ timer: EngineTimer<TimerKind>, into sink: inout OutputSink<Output>)
    /// End-of-trace diagnostics, raised at the last record's `t` and `seq`; `end` says whether the trace
    /// ended there or at a crash.
    mutating func finish(t: Int64, lastSeq: Int, end: TraceEnd, into sink: inout OutputSink<Output>)
    /// What an output is to its driver: a verdict, a finding, a timer, a decided outcome, a recovery, or an
    /// event of the engine's own.
    static func role(of output: Output) -> EngineOutputRole<TimerKind>

    /// When the next deadline the engine keeps falls due (`Deadlines`), with its order among the driver's
    /// timers; nil when it keeps none.
    var nextDeadline: (due: Int64, order: Int)? { get }
    /// When the next deadline the engine keeps falls due; `Int64.max` when it keeps none (the driver's
    /// test, at every record, of whether anything is due).
    var nextDeadlineDue: Int64 { get }
    /// Closes the next deadline if it falls due at or before `t`, as the timer it stands for would fire;
    /// returns that timer (nil: none due).
    mutating func closeDeadline(through t: Int64, into sink: inout OutputSink<Output>) -> EngineTimer<TimerKind>?
    /// Drops every deadline unclosed (what they waited for is gone).
    mutating func dropDeadlines()
}

extension Engine {
    /// An engine without deadlines of its own keeps none.
    @inlinable
    package var nextDeadline: (due: Int64, order: Int)? { nil }
    @inlinable
    package var nextDeadlineDue: Int64 { nextDeadline?.due ?? .max }
    @inlinable
    package mutating func closeDeadline(through t: Int64, into sink: inout OutputSink<Output>) -> EngineTimer<TimerKind>? { nil }
    @inlinable
    package mutating func dropDeadlines() {}
}

/// The part of an engine's output its driver handles the same way for every engine.
@usableFromInline package enum EngineOutputRole<TimerKind: Equatable & Sendable> {
    /// A verdict on a call.
    case verdict(Verdict)
    /// A finding.
    case finding(Finding)
    /// A finding counted, not built (its driver keeps no more findings).
    case counted(FindingCount)
    /// A timer to deliver back.
    case timer(EngineTimer<TimerKind>)
    /// What became of a call was decided after its verdict (V2, L4).
    case outcome(callSeq: Int, Outcome)
    /// The engine recovered from an interruption at `t` (I3, I5, I6, I11).
    case recovered(t: Int64)
    /// An event of the engine's own, which only an observer of the steps reads.
    case event
}
