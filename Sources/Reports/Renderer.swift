/// A report format: one value in, the bytes of the report out. Every format (text, JSON, HTML,
/// JUnit, Chrome) is one type behind this protocol; none reads another's output.
public protocol Renderer {
    /// What the format renders: an explanation, a replay with its lanes, a set of check outcomes.
    associatedtype Input
    /// The report, complete (deterministic: the same input gives the same bytes).
    func render(_ input: Input) -> String
}
