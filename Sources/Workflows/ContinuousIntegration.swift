import CommandLineKit

/// Whether rtctrace runs under CI, where golden snapshots are never written, renamed or deleted.
///
/// The one place that decides it. CI systems spell the variable differently (`true`, `1`,
/// `True`, `yes`), so any non-empty value counts except `false` and `0` (in any case): a CI run
/// must never quietly accept a changed snapshot because its CI variable was spelled differently.
package enum ContinuousIntegration {
    /// Whether this value of `CI` means CI.
    package static func isOn(_ value: String?) -> Bool {
        guard let v = value?.lowercased(), !v.isEmpty else { return false }
        return v != "false" && v != "0"
    }

    /// Whether the command runs under CI (by its environment).
    package static func isOn(_ context: CommandContext) -> Bool { isOn(context.environment("CI")) }

    /// `CI=value`, for messages that say why nothing was written.
    package static func setting(_ context: CommandContext) -> String { "CI=" + (context.environment("CI") ?? "") }
}
