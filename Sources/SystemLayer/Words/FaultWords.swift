// What an injected fault says as it happens: a note on standard error a test waits for.
enum FaultWords {
    /// Written straight to the descriptor, so a literal's bytes (no allocation, no formatting).
    static let stalledWritingATemporary: StaticString = "rtctrace: stalled writing a temporary\n"
}
