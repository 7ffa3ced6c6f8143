import CommandLineKit

/// `rtctrace cat`: the records as JSON Lines.
enum CatCommand {
    static let type = Option.string("--type", "prefix",
                                    "Only records whose type starts with PREFIX (e.g. 'api.' or 'srv.qualityReport'); repeatable.")
        .repeatable()
    static let from = Option.integer("--from", "ms", Int64.min...Int64.max, "Only records with t ≥ MS.")
    static let to = Option.integer("--to", "ms", Int64.min...Int64.max, "Only records with t ≤ MS.")

    static let spec = CommandSpec(
        name: "cat", usage: "cat TRACE|PARTS... [--type PREFIX] [--from MS] [--to MS] [--strict]",
        summary: "Print a trace's records as JSON Lines, one per line, exactly as recorded.",
        options: [type, from, to, CommonOptions.strict],
        details: "Damaged frames and invalid records are reported on stderr and skipped (exit 0) unless --strict.",
        exits: ExitCodes(failure: nil, readsTraces: false))

    static let command = Command(spec: spec) { args in
        // The parts of one session print in part order, each with its own header, as recorded.
        let parts = try TraceParts.resolve(args.positionals)
        let prefixes = args[type]
        let first = args[from]
        let last = args[to]
        let out = Output.stdout
        let terminal = out.isTerminal
        for part in parts.paths {
        _ = try readRecords(part, strict: args[CommonOptions.strict]) { r, reader in
            if let first, r.t < first { return }
            if let last, r.t > last { return }
            if !prefixes.isEmpty {
                let type = r.type
                guard prefixes.contains(where: { type.hasPrefix($0) }) else { return }
            }
            reader.withCurrentLine { line in
                if terminal, let safe = escapingTerminalControls(line) { out.write(safe) } else { out.write(bytes: line) }
            }
            out.write("\n")
        }
        }
        return .success
    }
}

/// On a terminal, a line with DEL or C1 control characters (which JSON may carry unescaped) is
/// printed with them as `\u` escapes, so it stays the same JSON and cannot drive the terminal.
func escapingTerminalControls(_ line: UnsafeBufferPointer<UInt8>) -> String? {
    var needs = false
    for (i, b) in line.enumerated() where b == 0x7F || (b == 0xC2 && i + 1 < line.count && (0x80...0x9F).contains(line[i + 1])) {
        needs = true
        break
    }
    guard needs else { return nil }
    var out = ""
    for u in String(decoding: line, as: UTF8.self).unicodeScalars {
        if u.value == 0x7F || (0x80...0x9F).contains(u.value) {
            out += "\\u00" + String(u.value, radix: 16)
        } else {
            out.unicodeScalars.append(u)
        }
    }
    return out
}
