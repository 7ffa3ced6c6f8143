import TraceFrames
import TraceModel

/// The recorder's own sentences: what it logs about the parts it finds, repairs, pauses on and gives up on,
/// and why a write, a repair, a folder or a bundle failed.
enum RecorderWords {
    // MARK: Writing a part

    /// A write that failed; whether the part could be cut back to its last whole frame (`restored`).
    static func writeFailed(path: String, afterBytes: Int, reason: String, restored: Bool) -> String {
        "\(path): write failed after \(afterBytes) bytes: \(reason)"
            + (restored ? "; the file still ends with a complete frame" : "; cutting the partial frame off failed too")
    }

    /// A folder of the recorder that could not be made.
    static func cannotCreateFolder(_ folder: String, reason: String) -> String { "cannot create the folder \(folder): \(reason)" }

    /// A part that could not be renamed within the folder.
    static func cannotMove(_ path: String, to destination: String, reason: String) -> String {
        "cannot move \(path) to \(destination): \(reason)"
    }

    /// Free space under the configured floor.
    static func underFreeSpaceFloor(freeKiB: Int64, root: String, floorKiB: Int) -> String {
        "\(freeKiB) KiB free in \(root), under the floor of \(floorKiB) KiB (FileLimits.minimumFreeBytes)"
    }

    /// A record over the record cap (logged once).
    static func recordOverCap(type: String, bytes: Int, capBytes: Int) -> String {
        "a \(type) record of \(bytes) bytes is over the record cap of \(capBytes) bytes: it is not written, and counted in trace.dropped (later ones are counted without a message)"
    }

    // MARK: Compression

    /// A custom compressor that could not be made.
    static func compressorNotMade(_ error: any Error) -> String {
        "the compressor passed in could not be made (\(error)); frames are stored uncompressed"
    }

    /// The compressor failed mid-recording.
    static func compressorFailed(_ failure: CompressionError) -> String {
        "the compressor failed (\(failure)); frames from here on are stored uncompressed"
    }

    // MARK: Parts an earlier run left

    /// A temporary part whose creation a crash interrupted.
    static func interruptedCreationRemoved(path: String) -> String {
        "\(path): a part whose creation a crash interrupted (no record in it) was removed"
    }

    /// A part left open that does not say where its session stands.
    static func leftOpenWithoutSessionState(path: String) -> String {
        "\(path): left open by an earlier run, but it does not say where its session stands; it is handed on and a new session begins"
    }

    /// A session continued after a restart.
    static func continuingSession(_ session: String, part: Int, tMs: Int64, seq: Int) -> String {
        "continuing session \(session) as part \(part) after a restart, at t = \(tMs) ms, seq \(seq)"
    }

    /// A part cut back to its last whole frame.
    static func unfinishedEndCut(path: String, cutBytes: Int, lastSeq: Int) -> String {
        "\(path): cut \(cutBytes) bytes a crash left unfinished off the end; it ends at seq \(lastSeq)"
    }

    /// A part with no record in it, removed.
    static func emptyPartRemoved(path: String) -> String {
        "\(path): left with no record in it (its header never reached the disk); removed"
    }

    /// A part of an earlier recorder version, ended by its last whole frame.
    static func earlierVersionPart(path: String) -> String {
        "\(path): written by an earlier version of the recorder; its last whole frame ends it, without an end mark"
    }

    /// A part left open that cannot be repaired now.
    static func cannotRepairNow(path: String, _ error: any Error) -> String {
        "\(path): left open by an earlier run and cannot be repaired now (\(error)); it stays where it is"
    }

    /// A part the caps would delete but that could not be.
    static func cannotDeleteForCaps(_ file: String) -> String { "cannot delete \(file) to keep the folder within its caps" }

    /// Why a part cannot be repaired: another live recorder holds it.
    static let partInUse = "another live recorder holds it"
    /// Why a part cannot be repaired: it cannot be opened.
    static func partCannotOpen(reason: String) -> String { "cannot open it: \(reason)" }
    /// Why a part cannot be repaired: it cannot be read.
    static func partCannotRead(reason: String) -> String { "cannot read it: \(reason)" }
    /// Why a part cannot be repaired: no start mark.
    static let partWithoutStartMark = "it does not begin with rtctrace's start mark"
    /// Why a part cannot be repaired: the repair itself failed.
    static func partCannotRepair(reason: String) -> String { "cannot repair it: \(reason)" }

    // MARK: Pauses

    /// Recording paused (`why` is the pause's words or the failure that caused it).
    static func paused(atMs: Int64, why: String, reason: PauseReason) -> String {
        "recording paused at t = \(atMs) ms: \(why). Records are left out (counted) until a write succeeds "
            + "again; the trace will say what it lacks (trace.paused, reason \(reason.rawValue))."
    }

    /// Recording resumed after a pause.
    static func resumed(atMs: Int64, fromMs: Int64, reason: PauseReason) -> String {
        "recording resumed at t = \(atMs) ms after a pause from t = \(fromMs) ms (\(reason.words)); "
            + "trace.paused says so in the trace"
    }

    /// Closed while paused: the open part is left for the next recorder.
    static func closedWhilePaused(reason: PauseReason?, _ error: any Error, openPart: String) -> String {
        "closed while recording was paused (\(reason?.words ?? "paused"); \(error)): \(openPart) keeps every frame "
            + "written before the pause and is repaired and handed on by the next recorder started in this folder"
    }

    // MARK: Stopping

    /// Recording could not start.
    static func didNotStart(_ error: any Error) -> String { "recording did not start: \(error)" }

    /// Recording stopped on an error.
    static func stoppedOn(_ error: any Error) -> String { "recording stopped: \(error)" }

    /// What a failure's log line adds: recording stopped, and what the open part keeps (when one was open).
    static func failureConsequence(openPart: String?) -> String {
        let open = openPart.map { " The open trace \($0) keeps every frame written before the failure and is repaired and handed on by the next recorder started in this folder." } ?? ""
        return ". Recording stopped; the trace files written before are intact." + open
    }

    // MARK: Bundles

    /// No closed part of the session to bundle.
    static func nothingToBundle(session: String, root: String) -> String {
        "no closed part of session \(session) in \(root) (outbox/ or local/): nothing to bundle"
    }

    /// A part that changed while it was copied into the bundle.
    static func changedWhileBundled(path: String) -> String {
        "\(path) changed while the bundle was written (an uploader or the folder's caps took it?)"
    }

    /// A part that could not be read for the bundle.
    static func cannotReadForBundle(path: String, reason: String) -> String {
        "cannot read \(path): \(reason) (an uploader took it out of the folder?)"
    }
}
