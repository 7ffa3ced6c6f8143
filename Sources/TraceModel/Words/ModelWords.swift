// The model's own texts that read as sentences: what stands for a string the symbol table had no room for,
// and the field name of an unknown record's fields.
package enum ModelWords {
    /// The text of the symbol table's overflow symbol.
    package static let stringPastSymbolLimit = "(a string past the replay's limit of distinct strings)"

    /// The field path naming the whole JSON of a record type this version does not know.
    package static let unknownRecordFields: StaticString = "(unknown record fields)"
}
