// What the kit tells the user: usage errors, refused outputs, what a folder walk skipped. Each
// sentence once.

enum KitMessageWords {
    static func missingValue(_ a: String) -> String { "missing value for '\(a)'" }
    static let withStrictDamageInTheInput = "with --strict, damage in the input"
    static func unknownCommand(_ a: String) -> String { "Error: unknown command '\(a)'" }
    static func tooFewDescriptors(_ free: Int) -> String { "too many open files: only \(free) file descriptor\(free == 1 ? " is" : "s are") free" }
    static func descriptorLimit(_ a: Int) -> String { " (the limit, ulimit -n, is \(a))" }
    static func descriptorsNeeded(_ a: Int) -> String { "; rtctrace needs \(a): raise the limit (ulimit -n 1024)" }
    static let anOutputThatIsOneOf = "an output that is one of the inputs or, for a command with --force, exists without it"
    static let usageOutputMeaningWithForce = "an output that is one of the inputs or exists without --force"
    static let usageOutputMeaning = "an output that is one of the inputs"
    static func usageMeaning(_ a: String) -> String { "usage: the command line is wrong (an unknown option, a value out of range, an input that does not exist, \(a))" }
    static let doneTheCommandDidWhatIt = "done: the command did what it was asked, and what it judged is fine"
    static let theCommandRanAndItsAnswer = "the command ran and its answer is no"
    static let theInputIsNotATrace = "the input is not a trace, or holds nothing to judge (no header, no records, an archive)"
    static let aFileCouldNotBeRead = "a file could not be read or written (a full disk, no permission, a folder that cannot be created, standard output closed)"
    static func kernelFile(_ a: String) -> String { "a kernel file (on \(a)), not read" }
    static let notARegularFile = "not a regular file"
    static let cannotBeRead = "cannot be read"
    static func hardLinks(_ a: Int, _ b: UInt64, _ c: UInt64, _ d: String) -> String { "has \(a) names (hard links; device \(b), inode \(c)), so it may be a file outside \(d)" }
    static let aSymbolicLinkThatLeadsNowhere = "a symbolic link that leads nowhere"
    static let aLinkToAFolderNot = "a link to a folder, not followed"
    static let aSymbolicLinkNotARegular = "a symbolic link, not a regular file"
    static let aLinkToSomethingThatIs = "a link to something that is not a regular file"
    static let cannotBeResolved = "cannot be resolved"
    static let isStandardOutput = " '-' is standard output."
    static func notAnInteger(_ a: String, _ b: String, _ c: String) -> String { "\(a): '\(b)' is not an integer (\(c))" }
    static func outOfRange(_ a: String, _ b: String, _ c: String) -> String { "\(a): \(b) is out of range \(c)" }
    static let aTraceIsWrittenOnlyTo = "a trace is written only to a regular file, not to standard output"
    static func traceNeedsRegularFile(_ a: String) -> String { "is a \(a); a trace is written only to a regular file" }
    static let isASymbolicLinkRefusingTo = "is a symbolic link; refusing to replace it (give the path of the file it points to)"
    static func notWritable(_ a: String) -> String { "is a \(a); refusing to write to it" }
    static let theSameFile = " (the same file)"
    static func outputIsInput(_ a: String, _ b: String, _ c: String, _ d: String, _ e: String) -> String { "\(a) \(b): is \(c) \(d)\(e); refusing to overwrite an input" }
    static let fifoNamedPipe = "FIFO (named pipe)"
    static func folderNotCreatedFor(_ a: String, _ b: String, _ c: String) -> String { "\(a): cannot create the folder \(b): \(c)" }
    static func moreProblems(_ a: Int, _ b: Int) -> String { "warning: … \(a) more problems not shown (\(b) in all; 'rtctrace verify' lists each)" }
}
