// The words of `check --junit`. Each sentence once.

enum CheckWords {
    static func partsOfItsSession(_ a: some Any) -> String { " (+\(a) parts of its session)" }
}
