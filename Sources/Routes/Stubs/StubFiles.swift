#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPServer
import EmulationKit
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// A `--mappings DIR` folder: `DIR/mappings/**/*.json` (each a mapping, an array of them or
/// `{"mappings": [...]}`), bodies from `DIR/__files`.
package struct StubFiles: Sendable {
    package let root: String
    package var mappingsFolder: String { root + "/mappings" }
    package var filesRoot: String { root + "/__files" }

    package init(root: String) {
        var r = root
        while r.count > 1 && r.hasSuffix("/") { r.removeLast() }
        self.root = r
    }

    /// Why a folder did not load: the file, and where in it.
    package struct LoadError: Error, CustomStringConvertible {
        package let description: String
    }

    /// The `.json` files under `DIR/mappings`, every level of subfolders, in WireMock's order:
    /// WireMock 2.35.1 walks with `File.listFiles` recursion (`AbstractFileSource.listFilesRecursively`),
    /// a subfolder's files in its place among its siblings. `listFiles` has no order of its own (it
    /// is the file system's), so each folder's entries are taken in name order (bytes, case
    /// counts): `a.json`, `b/…`, `c.json`. Names starting with `.` are skipped (editors' and
    /// Finder's files), as before. This order breaks equal-priority ties (the later file wins).
    package func files() throws(LoadError) -> [String] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: mappingsFolder) else {
            throw LoadError(description: "\(mappingsFolder): no such folder (--mappings DIR reads DIR/mappings/**/*.json and DIR/__files)")
        }
        var found: [String] = []
        var visited = Set<String>()
        StubFiles.walk(mappingsFolder, names, keeping: { $0.lowercased().hasSuffix(".json") }, into: &found, visited: &visited)
        return found
    }

    /// Every file under `folder` (`GET /__admin/files`), walked as `files()` walks the mappings;
    /// `[]` when it is not a folder.
    static func allFiles(under folder: String) -> [String] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return [] }
        var found: [String] = []
        var visited = Set<String>()
        walk(folder, names, keeping: { _ in true }, into: &found, visited: &visited)
        return found
    }

    /// Depth first, in name order; a folder met twice (a symbolic link back up) is walked once.
    private static func walk(_ folder: String, _ names: [String], keeping keep: (String) -> Bool, into found: inout [String],
                             visited: inout Set<String>) {
        guard visited.insert(StubFiles.realPath(folder)).inserted else { return }
        for name in names.sorted(by: { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }) where !name.hasPrefix(".") {
            let path = folder + "/" + name
            if let inner = try? FileManager.default.contentsOfDirectory(atPath: path) {
                walk(path, inner, keeping: keep, into: &found, visited: &visited)
            } else if keep(name) {
                found.append(path)
            }
        }
    }

    private static func realPath(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Every mapping of the folder, checked; any refused mapping stops it (`--mappings-strict`).
    package func load() throws(LoadError) -> [StubMapping] {
        let folder = try loadFolder()
        if let error = folder.strictError { throw error }
        return folder.mappings
    }

    /// The folder's mappings, the file each came from, and what was refused.
    package struct Folder: Sendable {
        package var mappings: [StubMapping] = []
        /// By mapping id.
        package var origins: [String: StubFileOrigin] = [:]
        /// The refused mappings and the warnings, in load order.
        package var report = StubLoadReport()
        /// The files with a refused mapping (or not JSON): a reload keeps what they held before.
        var failedFiles: Set<String> = []

        /// A folder of these mappings, with no origins and nothing refused (a reload from memory).
        package init(mappings: [StubMapping] = []) { self.mappings = mappings }

        /// `--mappings-strict`: every refusal in one error, or nil when none.
        package var strictError: LoadError? {
            guard !report.refused.isEmpty else { return nil }
            let lines = report.refused.map(\.line)
            return LoadError(description: "\(lines.count) mapping(s) refused (--mappings-strict loads all or none):\n" + lines.joined(separator: "\n"))
        }
    }

    /// Every mapping of the folder, each checked alone: a mapping this server cannot serve as
    /// written is refused (`report.refused`, with its file and pointer) and the others load. Only a
    /// missing `DIR/mappings` throws. `templateAll`: `--global-response-templating`.
    package func loadFolder(templateAll: Bool = false) throws(LoadError) -> Folder {
        var folder = Folder()
        var generator = SystemRandomNumberGenerator()
        var loaded: [(mapping: StubMapping, origin: StubFileOrigin, pointer: String)] = []
        for path in try files() {
            func refuse(_ pointer: String, _ reason: String) {
                folder.report.refused.append(StubRefusal(file: path, pointer: pointer, reason: reason))
                folder.failedFiles.insert(path)
            }
            guard let bytes = FileBytes.read(path) else { refuse("/", "cannot be read (check its permissions)"); continue }
            guard let value = JSONValue.parse(bytes) else {
                let offset = JSONValue.syntaxErrorOffset(bytes) ?? 0
                let (line, column) = StubFiles.lineColumn(bytes, offset)
                refuse("/", "JSON syntax error at line \(line), column \(column): \(JSONSyntaxHint.expected(bytes, at: offset))")
                continue
            }
            let items: [(JSONValue, String)]
            do throws(StubProblem) { items = try StubDocument.mappings(in: value) } catch { refuse(error.pointer, error.detail); continue }
            // A file of one mapping object may be rewritten or removed by the server; a file of several is read-only.
            let origin = StubFileOrigin(path: path, holdsSeveral: items.count != 1 || items.first?.1 != "", folder: mappingsFolder)
            for (item, pointer) in items {
                do throws(StubProblem) {
                    let mapping = try StubMapping.decode(item, at: pointer, filesRoot: filesRoot, newId: UUIDText.random(using: &generator),
                                                         templateAll: templateAll)
                    loaded.append((mapping, origin, pointer))
                } catch {
                    refuse(error.pointer, error.detail)
                }
            }
        }
        StubFiles.separateDuplicateIds(&loaded, warnings: &folder.report.warnings, generator: &generator)
        for (i, entry) in loaded.enumerated() {
            guard i < StubStore.maxStubs else {
                folder.report.refused.append(StubRefusal(file: entry.origin.path, pointer: entry.pointer.isEmpty ? "/" : entry.pointer,
                                                         reason: "past the limit of \(StubStore.maxStubs) mappings: move some to another folder or match many paths with one urlPathPattern"))
                folder.failedFiles.insert(entry.origin.path)
                continue
            }
            folder.mappings.append(entry.mapping)
            folder.origins[entry.mapping.id] = entry.origin
            if let warning = missingBodyFile(entry.mapping, templateAll: templateAll) {
                folder.report.warnings.append("\(entry.origin.path): \(entry.pointer)/response/bodyFileName: \(warning)")
            }
        }
        return folder
    }

    /// An id given by two mappings (files copied from one scenario folder to another): both load,
    /// as in WireMock. The later in load order keeps the id (it wins ties, and `/__admin/mappings/{id}`
    /// addresses it); an earlier one is given a new id, and a warning names both files.
    private static func separateDuplicateIds(_ loaded: inout [(mapping: StubMapping, origin: StubFileOrigin, pointer: String)],
                                             warnings: inout [String], generator: inout SystemRandomNumberGenerator) {
        var last: [String: Int] = [:]
        for (i, entry) in loaded.enumerated() { last[entry.mapping.id] = i }
        guard last.count < loaded.count else { return }
        for i in loaded.indices {
            let id = loaded[i].mapping.id
            guard let keeper = last[id], keeper != i else { continue }
            let newId = UUIDText.random(using: &generator)
            let place = { (e: (mapping: StubMapping, origin: StubFileOrigin, pointer: String)) in e.pointer.isEmpty ? e.origin.path : e.origin.path + " at " + e.pointer }
            warnings.append("id \(id) is given by two mappings, \(place(loaded[i])) and \(place(loaded[keeper])): both load; the later "
                            + "(\(place(loaded[keeper]))) keeps the id, wins ties and is the one /__admin/mappings/\(id) addresses; "
                            + "the earlier is loaded as \(newId) (give each file its own id to keep them apart)")
            loaded[i].mapping = loaded[i].mapping.withId(newId)
        }
    }

    /// Why a mapping's `bodyFileName` will answer 500 (no such file in `__files`), or nil. A templated
    /// name is known only when a request renders it.
    private func missingBodyFile(_ mapping: StubMapping, templateAll: Bool) -> String? {
        guard let response = mapping.json["response"], let name = response["bodyFileName"]?.string else { return nil }
        var templated = templateAll
        if case .array(let names)? = response["transformers"] { templated = templated || names.contains(.string("response-template")) }
        if templated && name.contains("{{") { return nil }
        switch StubBodyFile.read(name, in: filesRoot) {
        case .success: return nil
        case .failure(let missing): return missing.hint + ": the stub answers 500 until the file is there"
        }
    }

    /// 1-based line and column of a byte offset.
    static func lineColumn(_ bytes: [UInt8], _ offset: Int) -> (Int, Int) {
        var line = 1, column = 1
        for b in bytes.prefix(offset) {
            if b == 10 { line += 1; column = 1 } else if b & 0xC0 != 0x80 { column += 1 }
        }
        return (line, column)
    }
}
