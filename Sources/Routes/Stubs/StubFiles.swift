#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPServer

/// A `--mappings DIR` folder: `DIR/mappings/*.json` (each a mapping, an array of them or
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

    /// The `.json` files of `DIR/mappings` and its subfolders at any depth (as WireMock reads
    /// them; a team groups its mappings by feature), in name order. Hidden names are skipped.
    package func files() throws(LoadError) -> [String] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: mappingsFolder) else {
            throw LoadError(description: "\(mappingsFolder): no such folder (--mappings DIR reads DIR/mappings/*.json and DIR/__files)")
        }
        var found: [String] = []
        StubFiles.collect(names, in: mappingsFolder, depth: 0, into: &found)
        return found
    }

    /// Deeper than this is a symbolic link that loops, not a team's folders.
    static let maxDepth = 16

    private static func collect(_ names: [String], in folder: String, depth: Int, into found: inout [String]) {
        for name in names.sorted() where !name.hasPrefix(".") {
            let path = folder + "/" + name
            if let inner = try? FileManager.default.contentsOfDirectory(atPath: path) {
                if depth < maxDepth { collect(inner, in: path, depth: depth + 1, into: &found) }
            } else if name.lowercased().hasSuffix(".json") {
                found.append(path)
            }
        }
    }

    /// Every mapping of the folder, checked; the first bad file stops it with its file, line and column.
    package func load() throws(LoadError) -> [StubMapping] { try loadFolder().mappings }

    /// The folder's mappings and the file each came from.
    package struct Folder: Sendable {
        package var mappings: [StubMapping] = []
        /// By mapping id.
        package var origins: [String: StubFileOrigin] = [:]
    }

    /// Every mapping of the folder, checked, with its file; the first bad file stops it with its
    /// file, line and column.
    package func loadFolder() throws(LoadError) -> Folder {
        var folder = Folder()
        var generator = SystemRandomNumberGenerator()
        for path in try files() {
            guard let bytes = FileBytes.read(path) else { throw LoadError(description: "\(path): cannot be read") }
            guard let value = JSONValue.parse(bytes) else {
                let (line, column) = StubFiles.lineColumn(bytes, JSONValue.syntaxErrorOffset(bytes) ?? 0)
                throw LoadError(description: "\(path):\(line):\(column): JSON syntax error")
            }
            do throws(StubProblem) {
                let items = try StubDocument.mappings(in: value)
                // A file of one mapping object may be rewritten or removed by the server; a file of several is read-only.
                let origin = StubFileOrigin(path: path, holdsSeveral: items.count != 1 || items.first?.1 != "")
                for (item, pointer) in items {
                    let mapping = try StubMapping.decode(item, at: pointer, filesRoot: filesRoot, newId: UUIDString.random(using: &generator))
                    folder.mappings.append(mapping)
                    folder.origins[mapping.id] = origin
                }
            } catch {
                throw LoadError(description: "\(path): \(error.pointer): \(error.detail)")
            }
        }
        if folder.mappings.count > StubStore.maxStubs {
            throw LoadError(description: "\(mappingsFolder): \(folder.mappings.count) mappings, at most \(StubStore.maxStubs) may be loaded")
        }
        var seen = Set<String>()
        for m in folder.mappings where !seen.insert(m.id).inserted {
            throw LoadError(description: "\(mappingsFolder): the id \(m.id) is used by two mappings")
        }
        return folder
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
