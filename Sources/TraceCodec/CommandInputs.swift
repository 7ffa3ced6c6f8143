import SystemLayer

/// What the inputs of one command share: the descriptor `-` reads (the command's standard input), the
/// copies `InputSpool` made of inputs that can be read only once, and the bundles read (`TraceBundle`).
/// A command runs inside `scoped`, so that several commands run one after another in one process (a
/// test's) each read their own standard input and never see another's copies or bundles.
package enum CommandInputs {
    private static let lock = Lock()
    nonisolated(unsafe) private static var input: FileDescriptor = .standardInput

    /// The descriptor `-` reads now.
    static var standardInput: FileDescriptor { lock.withLock { input } }

    /// Runs `body` with `-` reading `standardInput`; when it ends, the copies of inputs that could be read
    /// only once are closed and the bundles read are forgotten.
    package static func scoped<T>(standardInput: FileDescriptor, _ body: () throws -> T) rethrows -> T {
        lock.withLock { input = standardInput }
        defer {
            InputSpool.forgetAll()
            TraceBundle.forgetAll()
            lock.withLock { input = .standardInput }
        }
        return try body()
    }
}
