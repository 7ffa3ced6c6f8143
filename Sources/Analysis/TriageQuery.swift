/// The DuckDB queries that reproduce what the summary lists, over the rows of a run (or the shards of
/// one, concatenated) as `rows.jsonl.zst`: each trace counted once (a row whose content hash an earlier
/// path had is a duplicate, whichever shard it landed in), only readable traces, the group against its
/// baseline within the product. One line each, so a terminal shows it whole.
package enum TriageQuery {
    /// The rows file the queries read, as docs/triage.md names the merged rows.
    package static let rowsFile = "rows.jsonl.zst"

    /// The rows, each upload once: the first path of each content hash (of files with bytes: empty files are
    /// not copies of each other), as a run marks duplicates.
    package static let distinctRows = "WITH rows AS (SELECT * FROM read_ndjson('\(rowsFile)') "
        + "QUALIFY row_number() OVER (PARTITION BY coalesce(CASE WHEN size > 0 THEN contentHash END, path) ORDER BY path) = 1)"

    /// Two rows, the group's (`in_group` true) then its baseline's, each with its readable traces and
    /// those with the tag: the counts of the entry.
    package static func reproducing(_ e: TriageRegressions.Entry) -> String {
        let field = e.dimension.rawValue
        func list(_ values: [String]) -> String { "(" + values.map(literal).joined(separator: ", ") + ")" }
        var filter = ["NOT list_has_any(tags, ['not-a-trace', 'unreadable'])",
                      e.product.layer.map { "layer = \(literal($0.rawValue))" } ?? "layer IS NULL"]
        // The product: its SDK versions (a version and its baseline are among them).
        switch e.dimension {
        case .sdk: filter.append("sdk IN " + list([e.group] + e.baselineGroups))
        case .os: filter += ["sdk IN " + list(e.productVersions), "os IN " + list([e.group] + e.baselineGroups)]
        case .device: filter.append("sdk IN " + list(e.productVersions))
        }
        return distinctRows + " SELECT coalesce(\(field) = \(literal(e.group)), false) AS in_group, count(*) AS traces, "
            + "count(*) FILTER (WHERE list_contains(tags, \(literal(e.tag.rawValue)))) AS tagged FROM rows WHERE "
            + filter.joined(separator: " AND ") + " GROUP BY in_group ORDER BY in_group DESC;"
    }

    /// A SQL string literal: in single quotes, each quote doubled.
    package static func literal(_ s: String) -> String {
        var out = "'"
        for ch in s { out += ch == "'" ? "''" : String(ch) }
        return out + "'"
    }
}
