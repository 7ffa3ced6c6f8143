@_spi(FaultInjection) import SystemLayer

/// What the writer is doing in an `append` run; writes are attributed to the stage they happen in.
enum Stage: Equatable {
    /// Opening the trace: the start mark of a new trace, or the frame of lines rescued from a torn one.
    case open
    /// Appending records (buffered; nothing is written).
    case appending
    /// The F-th flush of the run (1-based): one frame.
    case frame(Int)
    /// Closing: the end mark.
    case close
}

/// How many bytes of a write go through before the harness stops.
enum ByteCount: Equatable, CustomStringConvertible {
    case count(Int), half, last, all

    init?(_ text: Substring) {
        switch text {
        case "half": self = .half
        case "last": self = .last
        case "all": self = .all
        default:
            guard let n = Int(text), n >= 0 else { return nil }
            self = .count(n)
        }
    }

    /// The bytes of an `n`-byte write that go through.
    func of(_ n: Int) -> Int {
        switch self {
        case .count(let k): min(k, n)
        case .half: n / 2
        case .last: max(0, n - 1)
        case .all: n
        }
    }

    var description: String {
        switch self {
        case .count(let k): String(k)
        case .half: "half"
        case .last: "last"
        case .all: "all"
        }
    }
}

/// Where `append --stop` halts the writer, so that a test's kill lands exactly there.
///
/// - `open:BYTES`, `frame:F:BYTES`, `close:BYTES`: inside the first write of that stage, after
///   BYTES of it reached the file (`0`: before it; `all`: after it, before the writer returns,
///   i.e. mid-flush with the side file not yet updated).
/// - `appended:N`: after the run's N-th record was appended (records since the last flush buffered).
/// - `flushed:F`: after the run's F-th flush returned and the side file names it: between frames.
enum StopPoint: Equatable, CustomStringConvertible {
    case inWrite(Stage, ByteCount)
    case appended(Int)
    case flushed(Int)

    init?(_ text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        switch (parts.first, parts.count) {
        case ("open", 2): guard let b = ByteCount(parts[1]) else { return nil }; self = .inWrite(.open, b)
        case ("close", 2): guard let b = ByteCount(parts[1]) else { return nil }; self = .inWrite(.close, b)
        case ("frame", 3):
            guard let f = Int(parts[1]), f > 0, let b = ByteCount(parts[2]) else { return nil }
            self = .inWrite(.frame(f), b)
        case ("appended", 2): guard let n = Int(parts[1]), n > 0 else { return nil }; self = .appended(n)
        case ("flushed", 2): guard let f = Int(parts[1]), f > 0 else { return nil }; self = .flushed(f)
        default: return nil
        }
    }

    var description: String {
        switch self {
        case .inWrite(.open, let b): "open:\(b)"
        case .inWrite(.frame(let f), let b): "frame:\(f):\(b)"
        case .inWrite(.close, let b): "close:\(b)"
        case .inWrite(.appending, let b): "appending:\(b)"
        case .appended(let n): "appended:\(n)"
        case .flushed(let f): "flushed:\(f)"
        }
    }
}

/// Follows the run's stage and halts it at the stop point: the writer's writes are seen through the
/// system layer's fault hook, which lets the stop write take only some of its bytes and halts right
/// after them.
final class StopPlan: @unchecked Sendable {
    let stop: StopPoint?
    /// The stage the next write belongs to; setting it starts counting that stage's writes.
    var stage: Stage = .open { didSet { writesInStage = 0 } }
    /// The seq of the last record appended, reported when the run stops (-1: none yet).
    var lastAppended = -1
    private var writesInStage = 0

    init(_ stop: StopPoint?) { self.stop = stop }

    /// The hook the writer's writes go through (standard output and error, the harness's own lines,
    /// are not the writer's).
    var injector: FaultInjector {
        FaultInjector(write: { [self] attempt in
            guard attempt.descriptor.rawValue > 2 else { return nil }
            return self.before(count: attempt.count)
        }, written: { [self] attempt, written in
            guard attempt.descriptor.rawValue > 2, self.stopping else { return }
            self.halt("stopped \(self.stop!) at byte \(written) of \(attempt.count)")
        })
    }

    private var stopping = false

    /// Before a write of `n` bytes: a plain write, except at the stop point, where only the stop's
    /// bytes go through (and none: halt before it).
    private func before(count n: Int) -> Fault? {
        writesInStage += 1
        guard case .inWrite(let s, let b)? = stop, s == stage, writesInStage == 1 else { return nil }
        let through = b.of(n)
        if through == 0 { halt("stopped \(stop!) at byte 0 of \(n)") }
        stopping = true
        return through < n ? .shortWrite(through) : nil
    }

    /// Halts when the run reaches a stop point that is not inside a write.
    func reached(_ point: StopPoint) {
        if point == stop { halt("stopped \(point)") }
    }

    /// Says where the run stopped (one line, written before anything else can happen) and blocks
    /// until a signal ends the process.
    private func halt(_ line: String) -> Never {
        // The hook is done (and may hold its lock): the line goes straight out.
        SystemFaults.injector = nil
        say(line + ", last appended seq \(lastAppended)")
        while true { Clock.sleep(nanoseconds: 1_000_000_000) }
    }
}
