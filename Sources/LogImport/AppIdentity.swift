import TraceModel

/// Which process of the log is the trace's app: what the `self` of a `sys.*` record says, and which
/// lines may become the app's own `os.*` records.
package struct AppIdentity: Sendable, Equatable {
    /// The app's process names and bundle ids, lowercased.
    package var names: Set<String> = []
    /// The app's process ids.
    package var pids: Set<Int> = []
    /// How it was decided, in words (`--process MyApp`, …); nil when it could not be.
    package var how: String?

    /// Whether a line about `process` (with `pid`) is about the app.
    package func isApp(_ process: String, pid: Int?) -> Bool {
        if let pid, pids.contains(pid) { return true }
        return names.contains(process.lowercased())
    }

    /// Whether anything names the app.
    package var isKnown: Bool { !names.isEmpty || !pids.isEmpty }
}

/// What the lines tell about processes, gathered while reading, to decide the app's identity.
struct ProcessEvidence: Sendable {
    /// Names logged under each process id.
    var namesByPid: [Int: Set<String>] = [:]
    /// Process ids logged under each name (lowercased).
    var pidsByName: [String: Set<Int>] = [:]
    /// Processes whose image lies in an app's install container (`…/Bundle/Application/…/X.app/X`).
    var containerProcesses: Set<String> = []
    /// Distinct processes counted (the maps stop growing beyond a bound).
    static let bound = 100_000

    mutating func observe(_ process: String, pid: Int?, path: String?) {
        if let pid {
            if namesByPid.count < Self.bound || namesByPid[pid] != nil { namesByPid[pid, default: []].insert(process) }
            if pidsByName.count < Self.bound || pidsByName[process.lowercased()] != nil { pidsByName[process.lowercased(), default: []].insert(pid) }
        }
        if let path, path.lowercased().contains("/bundle/application/"), containerProcesses.count < 100 { containerProcesses.insert(process) }
    }

    /// The one process id logged under `name`, when there is exactly one (a Console copy's own lines carry
    /// no pid, but the media server names the process with it).
    func pid(ofName name: String) -> Int? {
        guard let pids = pidsByName[name.lowercased()], pids.count == 1 else { return nil }
        return pids.first
    }

    /// The one name logged under `pid`, when there is exactly one.
    func name(ofPid pid: Int) -> String? {
        guard let names = namesByPid[pid], names.count == 1 else { return nil }
        return names.first
    }

    /// The app's identity: `--pid`, else `--process`, else the bundle id of the trace's header (its last
    /// component as a process name, or a client the media server names by it), else the one process
    /// whose image lies in an app container.
    func identity(process: String?, pid: Int?, bundleId: String?, facts: [LogFact]) -> AppIdentity {
        var id = AppIdentity()
        func learn(pids: Set<Int>) {
            id.pids.formUnion(pids)
            for p in pids { id.names.formUnion((namesByPid[p] ?? []).map { $0.lowercased() }) }
            for f in facts where f.pid.map(pids.contains) == true { id.names.insert(f.process.lowercased()) }
        }
        if let pid {
            id.how = "--pid \(pid)"
            learn(pids: [pid])
        } else if let process {
            id.how = "--process \(process)"
            id.names = [process.lowercased()]
            learn(pids: (pidsByName[process.lowercased()] ?? []).union(facts.filter { $0.process.lowercased() == process.lowercased() }.compactMap(\.pid)))
        } else if let bundleId, let last = bundleId.split(separator: ".").last.map({ String($0).lowercased() }),
                  pidsByName[last] != nil || pidsByName[bundleId.lowercased()] != nil
                    || facts.contains(where: { [last, bundleId.lowercased()].contains($0.process.lowercased()) }) {
            id.how = ImportWords.byBundleId(bundleId)
            id.names = [bundleId.lowercased(), last]
            learn(pids: (pidsByName[last] ?? []).union(pidsByName[bundleId.lowercased()] ?? [])
                .union(facts.filter { id.names.contains($0.process.lowercased()) }.compactMap(\.pid)))
        } else if containerProcesses.count == 1, let only = containerProcesses.first {
            id.how = ImportWords.onlyAppProcess(only)
            id.names = [only.lowercased()]
            learn(pids: pidsByName[only.lowercased()] ?? [])
        }
        return id
    }
}
