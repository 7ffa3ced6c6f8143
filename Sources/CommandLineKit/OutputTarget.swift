import SystemLayer
import TraceCodec

/// Where an output option points, checked once, before any work, in this one place:
///
/// - never a file the command reads (same device and inode: `./a.zst`, a symlink or a hard link to
///   an input are all caught), even with `--force`. The inputs are the command's arguments expanded
///   as the readers expand them (`inputFiles`: a folder is every trace file below it, `@LIST` is the
///   list and every path in it), so no command lists them by hand; `append` checks its INPUT
///   against its TRACE with the same function (`refuseInput`);
/// - `-` and `/dev/stdout` are standard output; a character device or FIFO is written in place
///   (never replaced by a regular file: `-o /dev/null` as root must not replace /dev/null); a
///   symbolic link, a folder, a block device or a socket is refused;
/// - a regular file is replaced atomically (temporary sibling, then rename), holding the lock a
///   `TraceWriter` holds, so a trace being appended to is never replaced under its appender.
package final class OutputTarget {
    /// What is written.
    package enum Content: Sendable {
        /// A document written whole (HTML, JSON, XML): may go to standard output or a device.
        case document
        /// A trace: only ever a regular file.
        case trace
    }

    package enum Destination: Equatable {
        case standardOutput
        case standardError
        /// A character device or FIFO, written in place.
        case inPlace(FileType)
        /// A regular file (existing or not), replaced atomically.
        case file
    }

    package let path: String
    package let destination: Destination
    /// The writer's lock on the file about to be replaced, held until it is.
    private var lock: TraceLock?

    private init(path: String, destination: Destination, lock: TraceLock?) {
        self.path = path
        self.destination = destination
        self.lock = lock
    }

    /// Checks `path`, given to `option`, against the command's `inputs` (name in messages, path).
    package static func resolve(_ path: String, option: String, content: Content, inputs: [(role: String, path: String)]) throws -> OutputTarget {
        func refuse(_ why: String) -> UsageError { UsageError(message: "\(option) \(path): \(why)") }
        if path == "-" || path == "/dev/stdout" || path == "/dev/stderr" {
            guard content == .document else { throw refuse(KitMessageWords.aTraceIsWrittenOnlyTo) }
            return OutputTarget(path: path, destination: path == "/dev/stderr" ? .standardError : .standardOutput, lock: nil)
        }
        guard !path.isEmpty else { throw UsageError(message: KitHelpWords.emptyPath(option)) }
        guard let own = try? FileSystem.statusIfExists(path, followLinks: false) else {
            return OutputTarget(path: path, destination: .file, lock: nil)
        }
        // Inputs first, through links, so that a link to an input is named as that input.
        try refuseInput(path, option: option, inputs: inputs)
        let destination: Destination
        switch own.type {
        case .regular: destination = .file
        case .characterDevice, .fifo:
            guard content == .document else { throw refuse(KitMessageWords.traceNeedsRegularFile(describe(own.type))) }
            destination = .inPlace(own.type)
        case .symbolicLink: throw refuse(KitMessageWords.isASymbolicLinkRefusingTo)
        default: throw refuse(KitMessageWords.notWritable(describe(own.type)))
        }
        var lock: TraceLock?
        if destination == .file {
            do { lock = try TraceLock.acquire(existing: path) } catch { throw commandError(error) }
        }
        return OutputTarget(path: path, destination: destination, lock: lock)
    }

    /// Refuses `path` when it is (by device and inode, through links) one of `inputs` or a file an
    /// input argument stands for (see `inputFiles`): the one check that no command writes over a file
    /// it reads.
    package static func refuseInput(_ path: String, option: String, inputs: [(role: String, path: String)]) throws(UsageError) {
        guard path != "-", let followed = try? FileSystem.status(path) else { return }
        for input in inputFiles(inputs) {
            if let st = try? FileSystem.status(input.path), st.identity == followed.identity {
                let same = input.path == path ? "" : KitMessageWords.theSameFile
                throw UsageError(message: KitMessageWords.outputIsInput(option, path, input.role, input.path, same))
            }
        }
    }

    /// Every file the input arguments stand for, as the readers expand them: each argument itself, and
    /// for a folder every trace file below it, for `@LIST` the list file and every path in it (a folder
    /// there expanded the same way). `-` (standard input) stands for no file.
    package static func inputFiles(_ inputs: [(role: String, path: String)]) -> [(role: String, path: String)] {
        var out: [(role: String, path: String)] = []
        for input in inputs where input.path != "-" {
            let isList = input.path.hasPrefix("@") && input.path.count > 1
            if isList {
                out.append((role: "the list", path: String(input.path.dropFirst())))
            } else {
                out.append(input)
            }
            guard isList || FileSystem.isDirectory(input.path), let files = try? TriageInputs.expand([input.path]) else { continue }
            for i in 0..<files.count { out.append((role: input.role, path: files[i])) }
        }
        return out
    }

    package static func describe(_ type: FileType) -> String {
        switch type {
        case .characterDevice: "character device"
        case .blockDevice: "block device"
        case .fifo: KitMessageWords.fifoNamedPipe
        case .socket: "socket"
        case .directory: "folder"
        case .symbolicLink: "symbolic link"
        case .regular: "regular file"
        case .unknown: "special file"
        }
    }

    /// The path, or the stream it stands for, for messages.
    package var displayName: String {
        switch destination {
        case .standardOutput: "standard output"
        case .standardError: "standard error"
        default: path
        }
    }

    /// Whether a regular file is there now (for `--force`).
    package var exists: Bool { destination != .file || FileSystem.exists(path) }

    /// Creates the folders above a regular file that are missing (`-o rows/DAY/shard-0.jsonl.zst` on a
    /// fresh volume); a folder that cannot be made is an I/O failure (exit 74).
    package func createParentFolders() throws {
        guard destination == .file, let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return }
        let folder = String(path[..<slash])
        do { try FileSystem.makeDirectories(folder) } catch {
            throw IOFailure(message: KitMessageWords.folderNotCreatedFor(path, error.path ?? folder, error.reason))
        }
    }

    /// Writes a whole document where the target points (standard output and error are the context's,
    /// missing folders above a file are created); a write that fails is an I/O failure (exit 74).
    package func write(_ text: String, in context: CommandContext) throws {
        defer { release() }
        switch destination {
        case .standardOutput: context.out.write(text)
        case .standardError: context.err.write(text)
        case .inPlace:
            // Opened as it is, never created, truncated or renamed over.
            do {
                let f = try OpenFile(path, .writeOnly, options: [.closeOnExec, .noControllingTerminal])
                try f.writeAll(Array(text.utf8))
                try f.close()
            } catch {
                throw IOFailure(message: "\(path): write failed: \(error.reason)")
            }
        case .file:
            try createParentFolders()
            do { try AtomicFile.write(text, to: path) } catch { throw commandError(error) }
        }
    }

    /// Writes a document that `body` hands over in chunks (through the function it is given) where the
    /// target points, as `write(_:)` does, never holding it whole: a file gets a temporary sibling renamed
    /// into place at the end, and a failure removes it. A write that fails is an I/O failure (exit 74).
    package func write<T>(in context: CommandContext, streaming body: ((UnsafeRawBufferPointer) throws -> Void) throws -> T) throws -> T {
        defer { release() }
        switch destination {
        case .standardOutput, .standardError:
            let stream = destination == .standardOutput ? context.out : context.err
            let result = try body { p in
                stream.write(bytes: p.bindMemory(to: UInt8.self))
                try stream.throwIfFailed()
            }
            return result
        case .inPlace:
            let f: OpenFile
            do { f = try OpenFile(path, .writeOnly, options: [.closeOnExec, .noControllingTerminal]) } catch {
                throw IOFailure(message: "\(path): write failed: \(error.reason)")
            }
            do {
                let result = try body { p in try f.writeAll(p) }
                try f.close()
                return result
            } catch let e as SystemError {
                throw IOFailure(message: "\(path): write failed: \(e.reason)")
            }
        case .file:
            try createParentFolders()
            do {
                return try AtomicFile.replace(path) { tmp in
                    let f = try AtomicFile.createTemporary(tmp)
                    let result = try body { p in try f.writeAll(p) }
                    // Durable before the rename, so a power cut leaves the old file or the whole new one.
                    do { try f.sync() } catch let e as SystemError where e.errno == .invalidArgument {}
                    try f.close()
                    return result
                }
            } catch { throw commandError(error) }
        }
    }

    /// Replaces the trace at `path` with what `body` writes there (atomically, by the caller's
    /// `AtomicFile.replace`), holding the writer's lock on the old file until then; missing folders
    /// above it are created first.
    package func replaceTrace<T>(_ body: (_ path: String) throws -> T) throws -> T {
        defer { release() }
        try createParentFolders()
        return try body(path)
    }

    /// Lets go of the lock on the file that was replaced.
    package func release() {
        lock?.release()
        lock = nil
    }
}

/// The path an output option was given, with what it will hold: resolved against the command's
/// inputs (`resolve(inputs:)`) once the command knows them, before any work.
package struct OutputPath: Sendable, Equatable {
    /// The path as given (`-` for standard output).
    package let path: String
    /// The option it was given to, for messages.
    package let option: String
    /// What will be written there.
    package let content: OutputTarget.Content

    /// The path `path` given to `option`, to hold `content`.
    package init(path: String, option: String, content: OutputTarget.Content) {
        self.path = path
        self.option = option
        self.content = content
    }

    /// The checked target (see `OutputTarget.resolve`).
    package func resolve(inputs: [(role: String, path: String)]) throws -> OutputTarget {
        try OutputTarget.resolve(path, option: option, content: content, inputs: inputs)
    }
}

extension Arguments {
    /// The output option's target, checked against every file the command reads: its positional
    /// arguments (named `role` in messages, expanded as `OutputTarget.inputFiles` says) and `reading`,
    /// the files it reads beyond them (a golden check's snapshots); nil when the option was not given.
    package func output(_ o: Option<OutputPath>, role: String = "the input",
                       reading: [(role: String, path: String)] = []) throws -> OutputTarget? {
        try self[o]?.resolve(inputs: positionals.map { (role: role, path: $0) } + reading)
    }

    /// The required output option's target, checked as `output(_:role:reading:)` checks.
    package func output(_ o: RequiredOption<OutputPath>, role: String = "the input",
                       reading: [(role: String, path: String)] = []) throws -> OutputTarget {
        try self[o].resolve(inputs: positionals.map { (role: role, path: $0) } + reading)
    }
}

extension Arguments {
    /// Where a command that writes a session writes it: with several `parts` and `perPart`, a folder
    /// (the option's path, created when missing) holding `part-N.trace.zst` for part N (the number its
    /// header gives, so a session missing a part keeps its numbering); otherwise the option's one target.
    /// Every target is checked against the parts (`role` in messages) and, without `force`, refused when
    /// it exists. `unit` names what one part becomes ("trace", "file").
    package func sessionOutputs(_ o: RequiredOption<OutputPath>, parts session: TraceSession, perPart: Bool, role: String,
                               unit: String, force: Bool) throws -> [OutputTarget] {
        let parts = session.paths
        let targets: [OutputTarget]
        if parts.count > 1 && perPart {
            let folder = self[o].path
            if FileSystem.exists(folder) {
                guard FileSystem.isDirectory(folder) else {
                    throw UsageError(message: KitHelpWords.sessionNeedsFolder(folder, unit, unit))
                }
            } else {
                do { try FileSystem.makeDirectory(folder) } catch { throw IOFailure(message: KitHelpWords.folderNotCreated(folder, error)) }
            }
            let inputs = parts.map { (role: role, path: $0) }
            let numbers = session.partNumbers.count == parts.count ? session.partNumbers : Array(1...parts.count)
            targets = try numbers.map { n in
                try OutputTarget.resolve(folder + "/part-\(n).trace.zst", option: "-o", content: .trace, inputs: inputs)
            }
        } else {
            targets = [try output(o, role: role)]
        }
        for t in targets where !force && t.exists {
            throw UsageError(message: FileWords.alreadyExists(t.path))
        }
        return targets
    }
}
