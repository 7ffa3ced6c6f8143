/// Options several commands share, declared once.
package enum CommonOptions {
    package static let strict = Option.flag("--strict", "Fail (exit 1) on the first damaged frame or invalid record instead of recovering.")
    package static let force = Option.flag("--force", "Overwrite OUT if it exists.")
}
