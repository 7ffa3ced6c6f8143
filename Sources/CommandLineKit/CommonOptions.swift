/// Options several commands share, declared once.
package enum CommonOptions {
    package static let strict = Option.flag("--strict", KitHelpWords.failExitOnTheFirstDamaged)
    package static let force = Option.flag("--force", KitHelpWords.overwriteOutIfItExists)
}
