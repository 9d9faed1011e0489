#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPServer
import EmulationKit

/// The loaded stub mappings, their scenarios and hit counts, and the lookup the request pipeline
/// calls. Exact paths (`url`, `urlPath`) are indexed; patterns are kept apart, so a request
/// tests only the mappings of its own path and the patterns, best priority first.
@usableFromInline package final class StubStore: Sendable {
    /// Mappings kept at most.
    static let maxStubs = 10_000
    /// Instructions the URL patterns of all mappings may compile to together: a request's pass
    /// over its path reads the union's DFA, and a full DFA cache falls back to a Pike VM whose
    /// cost is path length × this.
    static let maxPatternInstructions = 1_000_000
    static let startedState = "Started"
    /// The log line's system for a stub answer starts with this, then the stub's name (or id).
    static let logPrefix = "stubs/"

    /// A class: an entry is read on every stub request from the lists (copied into a snapshot,
    /// passed along, returned), and a struct's copy retained each of the mapping's fields.
    final class Entry: Sendable {
        let mapping: StubMapping
        /// Insertion order: on equal priority the newest wins.
        let sequence: Int
        /// In the `--mappings` folder: loaded from it, or written to it (kept by `POST /__mock/reset`).
        let fromFiles: Bool
        /// The file it came from or was written to; nil: memory only.
        let file: StubFileOrigin?
        /// The mapping is what its file holds (`POST /__admin/mappings/save` skips it).
        let saved: Bool
        /// What the log line names: `stubs/` and the mapping's name, else its file under
        /// `DIR/mappings` (an id made at load changes each reload), else its id. Made once, not
        /// per request.
        let logName: String

        init(mapping: StubMapping, sequence: Int, fromFiles: Bool, file: StubFileOrigin? = nil, saved: Bool = false) {
            self.mapping = mapping
            self.sequence = sequence
            self.fromFiles = fromFiles
            self.file = file
            self.saved = saved
            logName = StubStore.logPrefix + (mapping.name ?? file?.label ?? mapping.id)
        }

        /// Sorts before `other` when it should be tried first.
        func precedes(_ other: Entry) -> Bool {
            mapping.priority != other.mapping.priority ? mapping.priority < other.mapping.priority : sequence > other.sequence
        }
    }

    struct State: Sendable {
        var entries: [Entry] = []
        var exact = StubPathTable()
        var patterns: [Entry] = []
        /// `patterns` compiled into sets; nil after a change, until the next request needs them.
        var sets: StubPatternSets?
        var scenarios: [String: String] = [:]
        var hits: [String: Int] = [:]
        var nextSequence = 0
        /// Counts changes of the index and of the scenarios' states: a match made on a snapshot
        /// commits only when what it read is unchanged (`StubStore+Matching.swift`).
        var indexVersion = 0
        var scenarioVersion = 0
        /// The file of each mapping the folder holds, by id, whether loaded or not: a `DELETE
        /// /__admin/mappings` leaves the files, so a persistent mapping with one of their ids is
        /// written back to its file, never to a second one with the same id.
        var folderFiles: [String: StubFileOrigin] = [:]

        mutating func rebuildIndex() {
            indexVersion += 1
            exact = StubPathTable()
            patterns = []
            sets = nil
            for entry in entries.sorted(by: { $0.precedes($1) }) {
                if let path = entry.mapping.request.exactPath { exact.insert(entry, path: path) } else { patterns.append(entry) }
            }
        }

        mutating func insert(_ entry: Entry) {
            indexVersion += 1
            entries.append(entry)
            if let path = entry.mapping.request.exactPath {
                exact.insert(entry, path: path)
            } else {
                StubStore.insertSorted(entry, into: &patterns)
                sets = nil
            }
        }

        /// The pattern sets, compiled on first use after a change (many changes in a row, such
        /// as an import one POST at a time, compile once).
        mutating func patternSets() -> StubPatternSets {
            if let sets { return sets }
            let built = patterns.isEmpty ? StubPatternSets.empty : StubPatternSets(patterns)
            sets = built
            return built
        }

        /// Scenarios no mapping names any more are forgotten; new ones start in `Started`.
        mutating func syncScenarios() {
            let names = Set(entries.compactMap(\.mapping.scenarioName))
            scenarioVersion += 1
            scenarios = scenarios.filter { names.contains($0.key) }
            for name in names where scenarios[name] == nil { scenarios[name] = StubStore.startedState }
        }
    }

    let state = Locked(State())
    /// `PUT /__admin/settings`: the delay every stub answer without its own gets, and `extended`
    /// (changed through `updateGlobalSettings`, which keeps `globalDelay` in step).
    let globalSettings = Locked(StubGlobalSettings())
    /// Whether the global settings hold a delay: a stub answer reads them only then.
    let globalDelay = LockFreeFlag()
    /// Held by every change of the mappings, around the files it writes too: what is checked
    /// before a file is written still holds when the change is made, while the request path
    /// (which takes only `state`) never waits for a disk.
    let writes = Locked(())
    /// Whether any mapping is loaded: the pipeline's only cost while none is.
    @usableFromInline let loaded = LockFreeFlag()
    /// The lock-free first look at a request's path.
    let filter = StubPathFilter()
    /// Pattern mappings whose whole request pattern was tried.
    private let patternsTried = StubCounter()

    /// How much work pattern matching has done (tests check a request pays one pass, not one
    /// match per pattern): passes of the pattern sets over a path or URL, and pattern mappings
    /// tried in full (their set matched).
    package var patternWork: (passes: Int, patternsTried: Int) { (filter.passes.count, patternsTried.count) }
    /// Whether a stub may answer a path an emulated system owns (a pattern, or an exact path of
    /// theirs): while none may, the systems' requests skip the stubs after one atomic load.
    @usableFromInline let overrides = LockFreeFlag()
    /// Which paths the emulated systems own (set by the composition root); nil: every path.
    let systemOwns = Locked<Boxed<@Sendable (String) -> Bool>?>(nil)
    /// The `--mappings` folder, if any: `bodyFileName` reads its `__files`, resets reload it.
    package let files: StubFiles?
    /// `DIR/__files` of `--mappings DIR`.
    package var filesRoot: String? { files?.filesRoot }
    /// `--global-response-templating`: every response is a template.
    package let templateAll: Bool
    /// What the folder's last load refused and warned about (`GET /__admin/mappings/refused`).
    package let loadRecord = StubLoadRecord()
    /// The mock's clock (`{{now}}`, the date matchers).
    package let now: @Sendable () -> Date
    /// A test's seam: called in the middle of every match, with no lock held (nil in a server).
    let matchProbe: (@Sendable (StubRequest) -> Void)?
    /// What a stub may answer (`--max-stub-body-bytes`).
    let limits: StubLimits
    /// WireMock's recorder (`/__admin/recordings/*`, `--record-mappings`): it sees every proxied exchange.
    package let recorder: StubRecorder
    /// Told about every change (the log and the events stream).
    private let observer: Locked<Boxed<@Sendable (StubChange) -> Void>?> = Locked(nil)

    /// - Parameters:
    ///   - files: the `--mappings` folder (nil: `bodyFileName` is refused, resets load nothing).
    ///   - limits: what a stub may answer (`--max-stub-body-bytes`).
    ///   - now: the mock's clock, for `{{now}}`.
    ///   - templateAll: every response is a template (`--global-response-templating`).
    ///   - limits: what a stub may answer (`--max-stub-body-bytes`).
    ///   - matchProbe: for tests: called in the middle of every match, with no lock held, so a
    ///     test can hold a match there while it calls the admin API.
    package init(files: StubFiles? = nil, templateAll: Bool = false, limits: StubLimits = StubLimits(),
                 now: @escaping @Sendable () -> Date, matchProbe: (@Sendable (StubRequest) -> Void)? = nil) {
        self.files = files
        self.templateAll = templateAll
        self.limits = limits
        self.now = now
        self.matchProbe = matchProbe
        recorder = StubRecorder(recordEverything: limits.recordMappings)
        if limits.recordMappings { recordProxiedExchanges() }
    }

    /// `--record-mappings`: the recorder hands each proxied exchange to this store.
    private func recordProxiedExchanges() {
        let sink: @Sendable (RecordedExchange) -> Void = { [weak self] exchange in self?.recordAsItComes(exchange) }
        recorder.sink.withLock { $0 = Boxed(sink) }
    }

    /// Sets who hears about changes.
    package func observe(_ body: @escaping @Sendable (StubChange) -> Void) { observer.withLock { $0 = Boxed(body) } }

    func report(_ change: StubChange) { observer.withLock { $0 }?.value(change) }

    /// True while no mapping is loaded (inlined into the pipeline: one atomic load on Linux).
    @inlinable package var isEmpty: Bool { !loaded.isSet }

    /// False while no loaded stub can answer a path a system owns: the pipeline then asks
    /// the stubs only about the paths no system owns.
    @inlinable package var mayAnswerSystemPaths: Bool { overrides.isSet }

    /// Tells the store which paths the emulated systems own (see `mayAnswerSystemPaths`).
    package func setSystemPaths(_ owns: @escaping @Sendable (String) -> Bool) {
        systemOwns.withLock { $0 = Boxed(owns) }
        state.withLock { s in overrides.set(Self.overridesSystems(s, owns)) }
    }

    private static func overridesSystems(_ s: State, _ owns: ((String) -> Bool)?) -> Bool {
        guard !s.patterns.isEmpty || !s.exact.isEmpty else { return false }
        guard let owns, s.patterns.isEmpty else { return true }
        return s.exact.groups.contains { owns($0.path) }
    }

    /// The refusal of URL patterns that would compile to more than `maxPatternInstructions` together.
    static func patternProblem<Kept: Sequence<StubMapping>>(_ kept: Kept, _ added: [StubMapping]) -> StubProblem? {
        let total = kept.reduce(0) { $0 + StubPatternSets.instructions(of: $1) } + added.reduce(0) { $0 + StubPatternSets.instructions(of: $1) }
        guard total > maxPatternInstructions else { return nil }
        return StubProblem("/request", "the URL patterns of the mappings would compile to \(total) instructions together, over the \(maxPatternInstructions) allowed: use simpler patterns or exact paths")
    }

    static func insertSorted(_ entry: Entry, into list: inout [Entry]) {
        var low = 0, high = list.count
        while low < high {
            let mid = (low + high) / 2
            if list[mid].precedes(entry) { low = mid + 1 } else { high = mid }
        }
        list.insert(entry, at: low)
    }

    // MARK: - Changes

    /// Adds checked mappings, all or none.
    package func add(_ mappings: [StubMapping], fromFiles: Bool = false, replaceExisting: Bool = false) throws(StubProblem) {
        try writes.withLock { _ throws(StubProblem) in
            if let problem = insert(mappings, fromFiles: fromFiles, replaceExisting: replaceExisting) { throw problem }
        }
        if !mappings.isEmpty { report(.added(mappings.map { StubReference(id: $0.id, name: $0.name) })) }
    }

    /// Adds mappings under `writes`, all or none (`dryRun`: only checks they could be), and says
    /// why not. A mapping in `written` is in the folder now (that file); a replaced mapping's file
    /// stays its file. `keepOnly` (an import with `deleteAllNotInImport`): every mapping whose id is
    /// not in it is removed in the same step, its hit counts too (a kept one is one the import
    /// names but left as it was, `duplicatePolicy: IGNORE`).
    func insert(_ mappings: [StubMapping], fromFiles: Bool, replaceExisting: Bool, keepOnly: Set<String>? = nil,
                written: [String: StubFileOrigin] = [:], dryRun: Bool = false) -> StubProblem? {
        let owns = systemOwns.withLock { $0 }?.value
        return state.withLock { s -> StubProblem? in
            var ids = Set<String>()
            for m in mappings {
                if !ids.insert(m.id).inserted { return StubProblem("/id", "id \(m.id) appears twice") }
            }
            let dropped = { (entry: Entry) in ids.contains(entry.mapping.id) || keepOnly.map { !$0.contains(entry.mapping.id) } ?? false }
            let replaced = s.entries.filter(dropped)
            if !replaceExisting && keepOnly == nil, let clash = replaced.first {
                return StubProblem("/id", "a mapping with id \(clash.mapping.id) exists: PUT /__admin/mappings/\(clash.mapping.id) replaces it")
            }
            if s.entries.count - replaced.count + mappings.count > StubStore.maxStubs {
                return StubProblem("/", "at most \(StubStore.maxStubs) stub mappings may be loaded (\(s.entries.count) are): remove some (DELETE /__admin/mappings/{id}) or match many paths with one urlPathPattern")
            }
            let kept = s.entries.lazy.filter { !ids.contains($0.mapping.id) }.map(\.mapping)
            if let problem = StubStore.patternProblem(kept, mappings) { return problem }
            if dryRun { return nil }
            if !replaced.isEmpty {
                s.entries.removeAll(where: dropped)
                if keepOnly != nil { for entry in replaced where !ids.contains(entry.mapping.id) { s.hits[entry.mapping.id] = nil } }
                s.rebuildIndex()
            }
            for (id, origin) in written { s.folderFiles[id] = origin }
            for m in mappings {
                let previous = replaced.first { $0.mapping.id == m.id }
                let file = written[m.id] ?? previous?.file
                // A replaced mapping keeps its place in the list and in the order of matching, as
                // WireMock's import edits the mapping it has (a new one is the newest).
                s.insert(Entry(mapping: m, sequence: previous?.sequence ?? s.nextSequence, fromFiles: fromFiles || written[m.id] != nil,
                               file: file, saved: fromFiles || written[m.id] != nil))
                if previous == nil { s.nextSequence += 1 }
            }
            s.syncScenarios()
            publishIndex(of: s, owns: owns)
            return nil
        }
    }

    /// After a change of the mappings, under the state's lock: what the request path reads
    /// without it (any stub loaded, the path filter's generation, stubs on a system's path).
    func publishIndex(of s: State, owns: ((String) -> Bool)?) {
        loaded.set(!s.entries.isEmpty)
        filter.advance()
        overrides.set(Self.overridesSystems(s, owns))
    }

    /// Replaces the mapping with `id` (keeping its place and origin); false when there is none.
    package func replace(id: String, with mapping: StubMapping) -> Bool {
        let done = writes.withLock { _ in swap(id: id, with: mapping) }
        if done { report(.changed(StubReference(id: mapping.id, name: mapping.name))) }
        return done
    }

    /// Replaces the mapping under `writes`; `written`: it is in the folder now, in that file.
    func swap(id: String, with mapping: StubMapping, written: StubFileOrigin? = nil) -> Bool {
        let owns = systemOwns.withLock { $0 }?.value
        return state.withLock { s -> Bool in
            guard let i = s.entries.firstIndex(where: { $0.mapping.id == id }) else { return false }
            if let written { s.folderFiles[id] = written }
            let old = s.entries[i]
            s.entries[i] = Entry(mapping: mapping, sequence: old.sequence, fromFiles: old.fromFiles || written != nil,
                                 file: written ?? old.file, saved: written != nil)
            s.rebuildIndex()
            publishIndex(of: s, owns: owns)
            s.syncScenarios()
            return true
        }
    }

    /// Removes one mapping; false when there is none with that id.
    @discardableResult
    package func remove(id: String) -> Bool {
        let removed = writes.withLock { _ in take(id: id) }
        if let removed { report(.removed([StubReference(id: removed.mapping.id, name: removed.mapping.name)])) }
        return removed != nil
    }

    /// Removes one mapping under `writes`: the entry removed, nil when there is none.
    func take(id: String) -> Entry? {
        let owns = systemOwns.withLock { $0 }?.value
        return state.withLock { s -> Entry? in
            guard let i = s.entries.firstIndex(where: { $0.mapping.id == id.lowercased() }) else { return nil }
            let entry = s.entries.remove(at: i)
            s.hits[entry.mapping.id] = nil
            s.rebuildIndex()
            s.syncScenarios()
            publishIndex(of: s, owns: owns)
            return entry
        }
    }

    /// Removes every mapping (`keepFiles`: those from `--mappings` stay), puts every scenario back
    /// to `Started` and forgets the hit counts.
    package func removeAll(keepFiles: Bool) {
        let owns = systemOwns.withLock { $0 }?.value
        let removed = writes.withLock { _ in state.withLock { s -> [Entry] in
            let gone = s.entries.filter { !(keepFiles && $0.fromFiles) }
            s.entries.removeAll { !(keepFiles && $0.fromFiles) }
            s.hits = [:]
            s.scenarios = [:]
            s.rebuildIndex()
            s.syncScenarios()
            publishIndex(of: s, owns: owns)
            return gone
        } }
        // A reset with no stub to remove says nothing (the reset event says the rest).
        if !removed.isEmpty { report(.removed(removed.map { StubReference(id: $0.mapping.id, name: $0.mapping.name) })) }
    }

    /// Replaces the mappings from files with `mappings` (a `--watch` reload), all or none.
    package func reloadFiles(_ mappings: [StubMapping]) throws(StubProblem) {
        try reloadFiles(StubFiles.Folder(mappings: mappings))
    }

    /// Replaces the mappings from files with the folder's (a `--watch` reload, a reset); a file
    /// with a refused mapping keeps the mappings it held before. A mapping its file holds unchanged keeps its place (its order among equal
    /// priorities): a folder that changed only by the server's own writes (`persistent: true`)
    /// reloads to the same stubs, and says nothing.
    package func reloadFiles(_ folder: StubFiles.Folder) throws(StubProblem) {
        let (changed, count) = try writes.withLock { _ throws(StubProblem) -> (Bool, Int) in
            let kept = keepingPrevious(folder)
            return (try apply(kept), kept.mappings.count)
        }
        loadRecord.replace(with: folder.report)
        if changed { report(.reloaded(count)) }
    }

    /// Reads the `--mappings` folder and reloads its mappings (`--watch`); a file with a refused
    /// mapping keeps what it held, and the report says why. The folder is read under `writes`:
    /// read while the server writes a mapping to it, it would lack that mapping, and the reload
    /// would drop a stub that was answered.
    @discardableResult
    package func reloadFolder() throws(StubFiles.LoadError) -> StubLoadReport {
        guard let files else { return StubLoadReport() }
        let (changed, count, loadReport) = try writes.withLock { _ throws(StubFiles.LoadError) -> (Bool, Int, StubLoadReport) in
            let folder = keepingPrevious(try files.loadFolder(templateAll: templateAll))
            do throws(StubProblem) { return (try apply(folder), folder.mappings.count, folder.report) } catch { throw StubFiles.LoadError(description: error.description) }
        }
        loadRecord.replace(with: loadReport)
        if changed { report(.reloaded(count)) }
        return loadReport
    }

    /// `POST /__admin/mappings/reset`: every mapping removed and the folder's loaded, its hit
    /// counts and scenarios forgotten, in one step under `writes` (a persistent mapping answered
    /// meanwhile is in the folder read, or added after). A file with a refused mapping keeps what
    /// it held (`loadRecord` says why); a folder that is gone changes nothing.
    func resetToFolder() throws(StubFiles.LoadError) {
        let (removed, count) = try writes.withLock { _ throws(StubFiles.LoadError) -> ([Entry], Int) in
            let folder = try readFolder()
            loadRecord.replace(with: folder.report)
            let before = state.withLock { $0.entries }
            do throws(StubProblem) { _ = try apply(folder, dropHTTP: true) } catch { throw StubFiles.LoadError(description: error.description) }
            return (before, folder.mappings.count)
        }
        if !removed.isEmpty { report(.removed(removed.map { StubReference(id: $0.mapping.id, name: $0.mapping.name) })) }
        report(.reloaded(count))
    }

    /// Under `writes`: the folder's mappings in place of the ones from files (`dropHTTP`: of every
    /// one, hit counts and scenarios too); whether anything changed.
    private func apply(_ folder: StubFiles.Folder, dropHTTP: Bool = false) throws(StubProblem) -> Bool {
        let owns = systemOwns.withLock { $0 }?.value
        let result: Result<Bool, StubProblem> = state.withLock { s in
            let loaded = Set(folder.mappings.map(\.id))
            let kept = dropHTTP ? [] : s.entries.filter { !$0.fromFiles && !loaded.contains($0.mapping.id) }
            if kept.count + folder.mappings.count > StubStore.maxStubs {
                return .failure(StubProblem("/", "at most \(StubStore.maxStubs) stub mappings may be loaded"))
            }
            if let problem = StubStore.patternProblem(kept.map(\.mapping), folder.mappings) { return .failure(problem) }
            var before: [String: Entry] = [:]
            for entry in s.entries where entry.fromFiles { before[entry.mapping.id] = entry }
            var changed = dropHTTP || s.entries.count != kept.count + folder.mappings.count
            if dropHTTP {
                s.hits = [:]
                s.scenarios = [:]
            }
            s.folderFiles = folder.origins
            s.entries = kept
            for m in folder.mappings {
                if let old = before[m.id], old.mapping.json == m.json {
                    s.entries.append(Entry(mapping: old.mapping, sequence: old.sequence, fromFiles: true, file: folder.origins[m.id], saved: true))
                } else {
                    changed = true
                    s.entries.append(Entry(mapping: m, sequence: s.nextSequence, fromFiles: true, file: folder.origins[m.id], saved: true))
                    s.nextSequence += 1
                }
            }
            guard changed else { return .success(false) }
            s.rebuildIndex()
            s.syncScenarios()
            publishIndex(of: s, owns: owns)
            return .success(true)
        }
        return try result.get()
    }

    /// Every scenario back to `Started`.
    func resetScenarios() {
        state.withLock { s in
            for key in s.scenarios.keys { s.scenarios[key] = StubStore.startedState }
            s.scenarioVersion += 1
        }
        report(.scenariosReset)
    }

    // MARK: - Reading

    /// Every mapping, newest first (as WireMock lists them).
    package var mappings: [StubMapping] {
        state.withLock { $0.entries }.sorted { $0.sequence > $1.sequence }.map(\.mapping)
    }

    package func mapping(id: String) -> StubMapping? {
        state.withLock { s in s.entries.first { $0.mapping.id == id.lowercased() }?.mapping }
    }

    /// How many requests each mapping answered since it was added (or the last reset).
    package func hits(id: String) -> Int { state.withLock { $0.hits[id] ?? 0 } }

    /// A scenario, its state and the states its mappings name.
    package struct Scenario: Sendable {
        package let name: String
        package let state: String
        package let possibleStates: [String]
        package let mappings: [StubMapping]
    }

    package var scenarios: [Scenario] {
        let (entries, states) = state.withLock { ($0.entries, $0.scenarios) }
        return states.keys.sorted().map { name in
            let members = entries.filter { $0.mapping.scenarioName == name }.map(\.mapping)
            return Scenario(name: name, state: states[name] ?? StubStore.startedState, possibleStates: StubStore.possibleStates(members),
                            mappings: members)
        }
    }

    /// A scenario's states as WireMock lists them: those its mappings move to, then those they require.
    static func possibleStates(_ members: [StubMapping]) -> [String] {
        var possible: [String] = []
        for s in members.compactMap(\.newScenarioState) + members.compactMap(\.requiredScenarioState) where !possible.contains(s) {
            possible.append(s)
        }
        return possible
    }

    /// Each mapping, newest first, as the console lists it: id, name, priority, method, URL,
    /// status, hits, scenario and its state, and whether it came from the `--mappings` folder.
    package var summaries: [JSONValue] {
        let s = state.withLock { $0 }
        return s.entries.sorted { $0.sequence > $1.sequence }.map { entry in
            let m = entry.mapping
            let request = m.json["request"] ?? .null
            let url = RequestPattern.urlKeys.compactMap { key in request[key]?.string.map { (key, $0) } }.first
            return [
                "id": .string(m.id), "name": JSONValue(m.name), "priority": .number(Double(m.priority)),
                "method": .string(request["method"]?.string ?? "ANY"),
                "url": JSONValue(url?.1), "urlMatch": JSONValue(url?.0),
                "status": .number(Double(m.response.status)),
                "hits": .number(Double(s.hits[m.id] ?? 0)),
                "scenario": JSONValue(m.scenarioName),
                "scenarioState": JSONValue(m.scenarioName.flatMap { s.scenarios[$0] }),
                "requiredScenarioState": JSONValue(m.requiredScenarioState),
                "fromFiles": .bool(entry.fromFiles),
            ]
        }
    }

    // MARK: - Serving

    /// The stub's answer to `request`, or nil when no mapping matches (the systems answer then).
    /// A matching mapping counts a hit and moves its scenario on, and its answer's delivery (a
    /// delay, a fault) and the stub (`answeredBy`: its id and name, and the log line's system)
    /// go into `context`.
    package func answer(_ request: HTTPRequest, in context: inout RequestContext) -> HTTPResponse? {
        guard loaded.isSet else { return nil }
        // A request whose path has no mapping and that no pattern accepts is turned away before
        // anything is built: the systems' requests pay only this (a pass over the path per
        // pattern set, outside the lock).
        guard let look = filter.look(path: request.path, url: request.target, refresh: { state.withLock { s in (s.exact, s.patternSets()) } }) else { return nil }
        let stubRequest = StubRequest(request)
        // Matched on a snapshot with the lock released: a slow match holds up no one else.
        guard let entry = match(stubRequest, look: look) else { return nil }
        // Read in place through the entry (a class): a copy of the mapping retained each of its fields.
        var response = entry.mapping.response.response(to: stubRequest, now: now(), filesRoot: filesRoot, limits: limits,
                                               stub: entry.mapping.name ?? entry.mapping.id, global: globalDelay.isSet ? globalSettings.withLock { $0 } : StubGlobalSettings(),
                                               delivery: &context.delivery)
        response.headers.add("Matched-Stub-Id", entry.mapping.id)
        if let name = entry.mapping.name { response.headers.add("Matched-Stub-Name", name) }
        if !entry.mapping.webhooks.isEmpty { StubStore.fireWebhooks(of: entry.mapping, for: stubRequest, now: now(), limits: limits, after: context.delivery.delayNanos) }
        // A proxying mapping: its rendered headers and delay go on the upstream's answer (a header
        // that failed to render is the 500 above, with its hint, and nothing is sent).
        if let proxy = entry.mapping.response.proxy, response.hint == nil {
            var extras = ProxyForwarding.Extras()
            extras.additionalRequestHeaders = proxy.additionalHeaders
            extras.prefixToRemove = proxy.prefixToRemove
            extras.responseHeaders = response.headers.fields.map { ($0.name, $0.value) }
            extras.preserveHost = limits.preserveHostHeader
            extras.recorder = recorder
            response = ProxyForwarding.forward(request, to: proxy.upstream, extras: extras, context: &context)
        }
        // The log line names the stub; the journal shows `stubs` and the stub's id and name. A
        // nameless stub from the folder is named by its file: an id made at load changes each reload.
        context.answeredBy = Substitute(.stub, id: entry.mapping.id, name: entry.mapping.name,
                                        logName: entry.logName,
                                        previous: context.answeredBy)
        return response
    }

    /// The first mapping, in priority order, among the request path's own and the pattern
    /// mappings whose URL matcher accepted it (`s.patterns`, best first), and whether a scenario's
    /// state decided it (a mapping was passed over or taken for it).
    func best(_ s: MatchView, for request: StubRequest) -> (entry: Entry?, readScenario: Bool) {
        var readScenario = false
        let patterns = s.patterns
        let own = s.exact.entries(for: request.path)
        var i = own.startIndex, j = 0
        while i < own.endIndex || j < patterns.count {
            let entry: Entry
            if j >= patterns.count || (i < own.endIndex && own[i].precedes(patterns[j])) {
                entry = own[i]; i += 1
            } else {
                entry = patterns[j]; j += 1
                patternsTried.add(1)
            }
            if let scenario = entry.mapping.scenarioName, let required = entry.mapping.requiredScenarioState {
                readScenario = true
                if s.scenarios[scenario] != required { continue }
            }
            if entry.mapping.request.matches(request, now: now()) { return (entry, readScenario) }
        }
        return (nil, readScenario)
    }
}

/// A change to the loaded stubs, for the log and the events stream.
package enum StubChange: Sendable {
    case added([StubReference])
    case changed(StubReference)
    case removed([StubReference])
    case reloaded(Int)
    /// `POST /__admin/mappings/save` wrote this many mappings to the folder.
    case saved(Int)
    case scenariosReset

    /// One line for the log.
    package var summary: String {
        switch self {
        case .added(let refs): return "stub(s) added: " + refs.map { $0.name ?? $0.id }.joined(separator: ", ")
        case .changed(let ref): return "stub changed: \(ref.name ?? ref.id)"
        case .removed(let refs): return "\(refs.count) stub(s) removed"
        case .reloaded(let n): return "mappings folder reloaded: \(n) stub(s)"
        case .saved(let n): return "\(n) stub(s) saved to the mappings folder"
        case .scenariosReset: return "stub scenarios back to Started"
        }
    }
}
