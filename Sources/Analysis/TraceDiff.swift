import QualityEngine
import Replay
import TraceModel

/// A record one side of a difference points at: enough to find it in the trace.
package struct DiffRecord: Equatable, Sendable {
    /// Its seq.
    package var seq: Int
    /// Its time.
    package var t: Int64
    /// Its type, e.g. `api.setRoute`.
    package var type: String

    /// Creates a reference.
    package init(seq: Int, t: Int64, type: String) {
        self.seq = seq
        self.t = t
        self.type = type
    }
}

/// One way two traces behave differently, with the records behind it on each side.
package struct Difference: Equatable, Sendable {
    /// What differs.
    package enum Kind: String, CaseIterable, Sendable {
        /// A call made with other arguments on each side (the k-th unpaired call of one type on each side).
        case call
        /// The verdict on a paired call (V1, L1, L2).
        case verdict
        /// What became of a paired route call in the end (V2).
        case outcome
        /// The predicted route, as a step function of time (R8).
        case predictedRoute
        /// The device's route, as a step function of time (X1).
        case actualRoute
        /// A divergence on one side only, or with other routes or explanation (X2, X3).
        case divergence
        /// A finding on one side only (its code's rule).
        case finding
        /// The derived quality level, as a step function of time (Q1, Q2).
        case quality
        /// One trace goes on after the other ends: records after the other's last one (a cut copy, say).
        case end
        /// B's clock moves against A's from a record on (a stretch recorded late): what follows is compared after the move.
        case shift
    }

    /// A later value of one side within a stretch: the state changed again while the sides still differed.
    package struct Step: Equatable, Sendable {
        /// When (in A's time).
        package var t: Int64
        /// The value from then on.
        package var value: String
        /// Creates a step.
        package init(t: Int64, value: String) {
            self.t = t
            self.value = value
        }
    }

    /// The value of a side where that side's records were lost (`aMissing`, `bMissing` say which).
    package static let missing = "missing"

    /// What differs.
    package var kind: Kind
    /// What it is about: the call (`api.setRoute speaker`), the finding code, or the state.
    package var subject: String
    /// The contract rule involved.
    package var rule: RuleID?
    /// When it starts (the earlier side's time).
    package var t: Int64
    /// When the two sides agree again, for a stretch of a state; nil: to the end (or not a stretch).
    package var until: Int64?
    /// The record on A's side (the call, the record that set the state, the finding's record).
    package var a: DiffRecord?
    /// The record on B's side.
    package var b: DiffRecord?
    /// A's value (`applied`, `speaker`, `raised`, …); nil when A has nothing there.
    package var aValue: String?
    /// B's value; nil when B has nothing there.
    package var bValue: String?
    /// The cause behind A's verdict or outcome, for wording.
    package var aCause: VerdictCause?
    /// The cause behind B's verdict or outcome, for wording.
    package var bCause: VerdictCause?
    /// For a stretch: A's later values within it, after `aValue`.
    package var aSteps: [Step] = []
    /// For a stretch: B's later values within it, after `bValue`.
    package var bSteps: [Step] = []
    /// Where A's value is `missing`: the records A lost there (the first such stretch).
    package var aMissing: LostStretch?
    /// Where B's value is `missing`: the records B lost there (the first such stretch; B's own seqs and times).
    package var bMissing: LostStretch?

    /// Creates a difference.
    package init(kind: Kind, subject: String, rule: RuleID?, t: Int64, until: Int64? = nil, a: DiffRecord?, b: DiffRecord?,
                aValue: String?, bValue: String?, aCause: VerdictCause? = nil, bCause: VerdictCause? = nil) {
        self.kind = kind
        self.subject = subject
        self.rule = rule
        self.t = t
        self.until = until
        self.a = a
        self.b = b
        self.aValue = aValue
        self.bValue = bValue
        self.aCause = aCause
        self.bCause = bCause
    }
}

/// How two traces of the same scenario behave differently: the differences in time order (the first
/// is where the behaviour first differs), and which records could not be paired.
package struct TraceDiff: Sendable {
    /// One side's facts.
    package struct Side: Sendable, Equatable {
        /// The trace.
        package var file: String
        /// Its layer.
        package var layer: Layer
        /// Records compared (headers and expectations left out).
        package var records: Int
        /// Records with no counterpart on the other side (the first `listCap`).
        package var unpaired: [DiffRecord]
        /// All of them, counted.
        package var unpairedCount: Int
    }

    /// Trace A.
    package var a: Side
    /// Trace B.
    package var b: Side
    /// Records paired by type and identifying fields (calls changed between the sides included).
    package var paired: Int
    /// Of them, calls of one type made with other arguments on each side (`Difference.Kind.call`).
    package var changedCalls = 0
    /// B's times minus A's at the start (the median over the first paired records): B's times are compared
    /// after taking it off, so that a trace recorded later (a pure shift) behaves the same. Where it moves
    /// later on, a difference of kind `shift` says so, and B's times after it are compared after the move.
    package var offsetMs: Int64 = 0
    /// Stretches of a state this short or shorter do not count (the replay tolerance).
    package var toleranceMs: Int64
    /// Every difference, in time order (the first `listCap`).
    package var differences: [Difference]
    /// All differences, counted.
    package var differenceCount: Int

    /// Lists keep at most this many entries.
    package static let listCap = 1000

    /// Whether the two traces behave the same.
    package var same: Bool { differenceCount == 0 }
}

/// One trace replayed for comparison: its records' identities and what the replay concluded.
package struct DiffSide: Sendable {
    /// A compared record: where it is and which of the side's identities it has.
    struct Keyed: Sendable {
        var seq: Int
        var t: Int64
        /// Its identity's index in `identities`.
        var id: Int32
    }

    /// A record's type and identifying fields: a long trace has few distinct ones, each kept once.
    struct Identity: Sendable {
        var type: String
        /// A hash of the type and identifying fields.
        var key: UInt64
        /// The type and identifying fields in words (`api.setRoute speaker`).
        var label: String
        /// Whether it is an app's call (its type `api.…`).
        var isCall: Bool
    }

    /// The trace.
    package var file: String
    /// The replay's conclusions.
    package var result: ReplayResult
    var records: [Keyed] = []
    var indexBySeq = SeqIndex()
    var levelChanges: [QualityEngine.LevelChange] = []
    /// The header, which values like the initial default route come from, though it is not compared.
    var header: DiffRecord?
    /// The distinct identities of the records, in the order met.
    var identities: [Identity] = []
    /// Each identity's index by its key and type (`identity(_:)`).
    var identityIndex: [UInt64: Int32] = [:]
    /// The identities of quality reports met so far, by their levels (`note`).
    var qualityIdentities: [Int32?] = []
    /// The identities of high-rate records kept as the reader decoded them, by the fields they read (`note(compact:)`).
    var compactIdentities: [Int32?] = []

    /// The reference to the compared record (or the header) with this seq, when there is one.
    func record(seq: Int?) -> DiffRecord? {
        guard let seq else { return nil }
        if let i = indexBySeq[seq] { return ref(i) }
        return header?.seq == seq ? header : nil
    }

    func ref(_ i: Int) -> DiffRecord { DiffRecord(seq: records[i].seq, t: records[i].t, type: type(i)) }

    /// The identity of compared record `i`.
    func identity(_ i: Int) -> Identity { identities[Int(records[i].id)] }
    /// The type of compared record `i`.
    func type(_ i: Int) -> String { identity(i).type }
    /// The label of compared record `i`.
    func label(_ i: Int) -> String { identity(i).label }
}
