// What the replay options say in `--help`. Each sentence once.

enum WorkflowHelpWords {
    static let aDivergenceCountsOnceItLasts = "A divergence counts once it lasts longer than this (X2; default 500)."
    static let recoveryRetryAfterTheSystemCall = "Recovery retry after the system call ends (I3, D; default 2000)."
    static let qualitySpuriouschangeMissedchangeWindowDefault = "quality.spuriousChange / missedChange window (default 1000)."
    static let qualityFlappingMoreThanLevelChanges = "quality.flapping: more than N level changes… (default 4)."
    static let withinThisWindowDefault = "…within this window (default 30000)."
    static let lConfirmationTimeoutDefault = "L3 confirmation timeout (default 3000)."
    static let alsoModelAPoorNetworkPrompt = "Also model a 'poor network' prompt raised on k of n reports, cleared after holdMs (e.g. 3/5/10000)."
}
