// What the SDK says in the bench sessions' episodes: its log's warning and an error's text.
enum BenchWords {
    static let backgroundWithAudio = "entered background with audio"
    static let transportNotReady = "-3 transport not ready"
}
