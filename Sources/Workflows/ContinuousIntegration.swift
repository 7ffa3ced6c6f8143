import SystemLayer

/// Whether rtctrace runs under CI, where golden snapshots are never written, renamed or deleted.
///
/// The one place that decides it. CI systems spell the variable differently (`true`, `1`,
/// `True`, `yes`), so any non-empty value counts except `false` and `0` (in any case): a CI run
/// must never quietly accept a changed snapshot because its CI variable was spelled differently.
public enum ContinuousIntegration {
    /// Whether this value of `CI` means CI.
    public static func isOn(_ value: String?) -> Bool {
        guard let v = value?.lowercased(), !v.isEmpty else { return false }
        return v != "false" && v != "0"
    }

    /// Whether the process runs under CI.
    public static var isOn: Bool { isOn(CurrentProcess.environment("CI")) }

    /// `CI=value`, for messages that say why nothing was written.
    public static var setting: String { "CI=" + (CurrentProcess.environment("CI") ?? "") }
}
