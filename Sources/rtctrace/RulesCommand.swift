import CommandLineKit
import Reports

/// `rtctrace rules [ID|CODE]`: the contract's rule catalogue, or one entry in full.
enum RulesCommand {
    static let json = Option.flag("--json", HelpWords.printTheCatalogueOrTheEntry)

    static let spec = CommandSpec(
        name: "rules", usage: "rules [ID|CODE] [--json]",
        summary: HelpWords.listTheContractSRulesAnd,
        options: [json],
        details: HelpWords.idIsARuleIdR,
        exits: ExitCodes(failure: nil, readsTraces: false))

    static let command = Command(spec: spec) { args, context in
        guard args.positionals.count <= 1 else { throw UsageError(message: MessageWords.expectedAtMostOneIdOr) }
        var entry: RulesReport.Entry?
        if let name = args.positionals.first {
            guard let found = RulesReport.Entry(name) else {
                throw UsageError(message: MessageWords.unknownRuleOrCode(name))
            }
            entry = found
        }
        context.out.write(Renderers.catalogue(args[json] ? .rulesJSON : .rulesText)!.render(entry))
        return .success
    }
}
