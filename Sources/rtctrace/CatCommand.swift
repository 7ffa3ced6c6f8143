import Reports
import TraceFormat

/// `rtctrace cat`: the records as JSON Lines.
enum CatCommand {
    static let spec = CommandSpec(
        name: "cat", usage: "cat TRACE [--type PREFIX] [--from MS] [--to MS] [--strict]",
        summary: "Print a trace's records as JSON Lines, one per line, exactly as recorded.",
        options: [("--type", "prefix", "Only records whose type starts with PREFIX (e.g. 'api.' or 'srv.qualityReport'); repeatable."),
                  ("--from", "ms", "Only records with t ≥ MS."),
                  ("--to", "ms", "Only records with t ≤ MS.")],
        flags: [strictFlag],
        details: "Damaged frames and invalid records are reported on stderr and skipped (exit 0) unless --strict.")

    static let command = Command(spec: spec) { args in
        guard args.positionals.count == 1 else { throw UsageError(message: "expected one TRACE") }
        let prefixes = args.values["--type"] ?? []
        let from = try args.int64("--from")
        let to = try args.int64("--to")
        let out = Output.stdout
        _ = try readRecords(args.positionals[0], strict: args.has("--strict")) { r, reader in
            if let from, r.t < from { return }
            if let to, r.t > to { return }
            if !prefixes.isEmpty {
                let type = r.type
                guard prefixes.contains(where: { type.hasPrefix($0) }) else { return }
            }
            reader.withCurrentLine { out.write(bytes: $0) }
            out.write("\n")
        }
        return .success
    }
}
