import SystemLayer
import TraceCodec

/// The key of the tokens that stand for personal values (`redact`, `reduce`, `triage`): `--salt S`,
/// `--salt-file PATH` or the environment variable `RTCTRACE_SALT`, first given first. There is no
/// built-in key: a fixed one would let anyone rebuild the token of a guessed value. A fleet keeps one
/// key (a secret its jobs mount as a file or an environment variable), so the same value gets the same
/// token in every shard, on every day and in every redacted trace.
package enum TokenKey {
    /// The environment variable that holds the key when no option gives one.
    package static let environmentVariable = "RTCTRACE_SALT"
    /// The longest key file read (a key is a few dozen bytes; a larger file is a wrong path).
    static let maxFileBytes = 4096

    /// `--salt S`, described for the command that declares it.
    package static func salt(_ help: String) -> Option<String> { Option.string("--salt", "s", nonEmpty: true, help) }

    /// `--salt-file PATH`.
    package static let saltFile = Option.string("--salt-file", "path", nonEmpty: true,
                                               KitHelpWords.readTheKeyFromThisFile)

    /// How `--help` and the warnings name the ways to give a key.
    package static let ways = "--salt, --salt-file or \(environmentVariable)"

    /// The key the command line or the context's environment gives, or nil when none does. A usage error when both
    /// options are given, or when the file cannot be read or holds no key.
    package static func key(_ args: Arguments, salt: Option<String>, in context: CommandContext) throws -> String? {
        if args[salt] != nil && args[saltFile] != nil { throw UsageError(message: KitHelpWords.giveOneOfSaltAndSalt) }
        if let s = args[salt] { return s }
        if let path = args[saltFile] {
            let bytes: [UInt8]?
            do { bytes = try SmallFile.read(path, limit: maxFileBytes) } catch { throw UsageError(message: "--salt-file \(error)") }
            guard var text = bytes.map({ String(decoding: $0, as: UTF8.self) }) else {
                throw UsageError(message: KitHelpWords.saltFileMissing(path))
            }
            while text.last?.isNewline == true { text.removeLast() }
            guard !text.isEmpty else { throw UsageError(message: KitHelpWords.saltFileEmpty(path)) }
            return text
        }
        if let s = context.environment(environmentVariable), !s.isEmpty { return s }
        return nil
    }
}
