// What the kit's own options and the exit-code table say in `--help`. Each sentence once.

import SystemLayer

enum KitHelpWords {
    static func undeclaredEnvironment(_ a: String) -> String { "\(a) is read by a command that does not declare it" }
    static let showHelpInformation = "Show help information."
    static let failExitOnTheFirstDamaged = "Fail (exit 1) on the first damaged frame or invalid record instead of recovering."
    static let overwriteOutIfItExists = "Overwrite OUT if it exists."
    static func mustNotBeEmpty(_ a: String) -> String { "\(a): must not be empty" }
    static func notAChoice(_ a: String, _ b: String, _ c: String) -> String { "\(a): '\(b)' is not one of \(c)" }
    static func emptyPath(_ a: String) -> String { "\(a): an empty path names no file" }
    static func sessionNeedsFolder(_ a: String, _ b: String, _ c: String) -> String { "-o \(a): the parts of a session are written to a folder (one \(b) per part); use --merge for one \(c)" }
    static func folderNotCreated(_ a: String, _ b: SystemError) -> String { "\(a): cannot create the folder: \(b)" }
    static let readTheKeyFromThisFile = "Read the key from this file (its text without the final newline), e.g. a mounted secret."
    static let giveOneOfSaltAndSalt = "give one of --salt and --salt-file, not both"
    static func saltFileMissing(_ a: String) -> String { "--salt-file \(a): no such file" }
    static func saltFileEmpty(_ a: String) -> String { "--salt-file \(a): the file is empty (it must hold the key)" }
    static let overview = "Record, inspect and replay traces of the SRTC / SMeeting iOS SDK."
    static let seeCommandHelp = "See 'rtctrace <command> --help' for the options of a command, 'rtctrace --version' for the version."
}
