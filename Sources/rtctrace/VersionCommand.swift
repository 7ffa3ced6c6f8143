import CommandLineKit
import TraceModel

/// `rtctrace version` (also `rtctrace --version`).
enum VersionCommand {
    static let spec = CommandSpec(name: "version", usage: "version", summary: "Print rtctrace's version.",
                                  exits: ExitCodes(failure: nil, readsTraces: false))

    static let command = Command(spec: spec) { _ in
        Output.stdout.line("rtctrace \(rtctraceVersion)")
        return .success
    }
}
