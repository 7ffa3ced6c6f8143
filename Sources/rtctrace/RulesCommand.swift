import CommandLineKit
import Reports

/// `rtctrace rules [ID|CODE]`: the contract's rule catalogue, or one entry in full.
enum RulesCommand {
    static let json = Option.flag("--json", "Print the catalogue (or the entry) as JSON.")

    static let spec = CommandSpec(
        name: "rules", usage: "rules [ID|CODE] [--json]",
        summary: "List the contract's rules and finding codes, or explain one.",
        options: [json],
        details: "ID is a rule id (R4, I3, X3, …), CODE a finding code (route.ineffective, …); case does not matter.\nThe full contract is docs/contract.md.",
        exits: ExitCodes(failure: nil, readsTraces: false))

    static let command = Command(spec: spec) { args, context in
        guard args.positionals.count <= 1 else { throw UsageError(message: "expected at most one ID or CODE") }
        var entry: CatalogueText.Entry?
        if let name = args.positionals.first {
            guard let found = CatalogueText.Entry(name) else {
                throw UsageError(message: "'\(name)' is neither a rule id nor a finding code; 'rtctrace rules' lists them")
            }
            entry = found
        }
        context.out.write(Renderers.catalogue(args[json] ? .rulesJSON : .rulesText)!.render(entry))
        return .success
    }
}
