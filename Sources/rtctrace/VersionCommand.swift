import CommandLineKit
import TraceModel

/// `rtctrace version` (also `rtctrace --version`).
enum VersionCommand {
    static let spec = CommandSpec(name: "version", usage: "version", summary: HelpWords.printRtctraceSVersion,
                                  exits: ExitCodes(failure: nil, readsTraces: false))

    static let command = Command(spec: spec) { _, context in
        context.out.line("rtctrace \(rtctraceVersion)")
        return .success
    }
}
