import SystemLayer

/// Arenas replays have finished with, kept for the next replay on any thread: a fleet's replays, one after
/// the other, reuse one arena's buffers and symbol table instead of allocating and growing them for every
/// trace. An arena is handed out emptied (`ReplayArena.clear`), as a new one would be; one that grew large
/// (a long trace's strings) is not kept, and at most `maxKept` are, so memory does not grow with the replays.
public final class ReplayArenaPool: @unchecked Sendable {
    /// The pool every replay shares.
    public static let shared = ReplayArenaPool()
    /// How many arenas are kept at most.
    public static let maxKept = 4
    /// Distinct strings past which an arena's table is not kept (its storage would outweigh a new one's growth).
    public static let maxKeptSymbols = 1 << 14

    private let lock = Lock()
    private var kept: [ReplayArena] = []

    /// An arena as a new `ReplayArena(symbols: SymbolTable(maxSymbols: maxSymbols))` is: a kept one, emptied, or a new one.
    public func take(maxSymbols: Int) -> ReplayArena {
        let found = lock.withLock { () -> ReplayArena? in
            guard let i = kept.lastIndex(where: { $0.symbols.maxSymbols == maxSymbols }) else { return nil }
            return kept.remove(at: i)
        }
        guard let arena = found else { return ReplayArena(symbols: SymbolTable(maxSymbols: maxSymbols)) }
        arena.clear()
        return arena
    }

    /// Keeps an arena no replay refers to any more (the caller held its last reference), unless it grew
    /// large or enough are kept.
    public func give(_ arena: ReplayArena) {
        guard arena.symbols.count <= Self.maxKeptSymbols, arena.symbols.maxBytes == SymbolTable.defaultMaxBytes else { return }
        lock.withLock {
            if kept.count < Self.maxKept { kept.append(arena) }
        }
    }

    /// How many arenas are kept now.
    public var count: Int { lock.withLock { kept.count } }

    /// Forgets every kept arena: the next replays make new ones.
    public func drop() { lock.withLock { kept = [] } }
}

extension ReplayArena {
    /// Empties the arena as a new one is: its buffers, its symbol table, and whole records kept only when asked.
    public func clear() {
        reset()
        symbols.reset()
        keepsWhole = false
    }
}
