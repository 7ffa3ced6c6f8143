// The words of `check`'s text and its JUnit. Each sentence once.

enum CheckWords {
    /// A JUnit case's name for a session's parts when neither a folder nor an id names it.
    static func sessionCaseSuffix(_ others: Int) -> String { " (+\(others) parts of its session)" }
    /// After a trace's name in `check`'s lines: how many more parts its session has.
    static func otherParts(_ others: Int) -> String { " (+\(others) part\(others == 1 ? "" : "s") of its session)" }
}
