// The words of the Chrome export: its tracks and what its budget left out. Each sentence once.

enum ExportWords {
    static func eventsOverBudget(_ a: Int) -> String { "note: \(a) events are not exported: the file reached its budget of " }
    static let otherdataEventsnotexportedSaysHowMany = "(otherData.eventsNotExported says how many)"
    static func recordsBeyondInstantCap(_ a: Int, _ b: Int) -> String { "note: \(a) records beyond the first \(b) are not exported as instants " }
    static func instantCap(_ a: Int, _ b: Int) -> String { "(at most \(a) records, \(b) MiB of their JSON)" }
    static func budgetFormula(_ a: Int, _ b: Int, _ c: Int) -> String { "\(a) × the input's \(b) bytes + \(c) MiB " }
}
