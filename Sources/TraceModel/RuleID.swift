// The contract's numbered rules as identifiers: the ids reports, tests and golden traces cite.

/// A rule of the contract the engines model; ids are stable and cited by findings, verdicts and golden traces.
public enum RuleID: String, TraceVocabulary, Comparable, CustomStringConvertible {
    case R1, R2, R3, R4, R5, R6, R7, R8, R9, R10, R11, R12, R13, R14, R15, R16, R17, R18, R19
    case I1, I2, I3, I4, I5, I6, I7, I8, I9, I10, I11, I12, I13, I14
    case V1, V2
    case X1, X2, X3, X4
    case Q1, Q2, Q3, Q4, Q5, Q6, Q7
    case S1, S2, S3
    case L1, L2, L3, L4
    case T1, T2
    case E1

    /// The id as written, e.g. `R4`.
    public var description: String { rawValue }

    /// Catalogue order (the order of `allCases`).
    public static func < (a: RuleID, b: RuleID) -> Bool { a.order < b.order }

    private var order: Int { Self.allCases.firstIndex(of: self)! }
}
