#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPServer

/// A `bodyFileName` looked up under `__files` by exact name: each component of the path must be,
/// byte for byte, an entry of the directory listing. A Mac's default volume would otherwise find
/// `body.json` for `Body.json` (and `é` in either Unicode form), and a stub that works there would
/// fail on Linux.
enum StubBodyFile {
    /// The file's bytes, or why there are none (the hint names a near miss: the same name in
    /// another case).
    static func read(_ name: String, in root: String) -> Result<[UInt8], Missing> {
        var path = root
        for component in name.split(separator: "/") {
            guard component != "..", !component.utf8.contains(0) else { return .failure(Missing(name: name, nearMiss: nil)) }
            if component == "." { continue }
            guard lists(path, component) else {
                // Only a miss pays for the names (it is an error answer).
                let folded = component.lowercased()
                let entries = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
                return .failure(Missing(name: name, nearMiss: entries.first { $0.lowercased() == folded }))
            }
            path += "/" + component
        }
        guard let bytes = FileBytes.read(path) else { return .failure(Missing(name: name, nearMiss: nil)) }
        return .success(bytes)
    }

    /// Whether `directory` has an entry whose name is exactly `name`'s bytes (String's `==` would
    /// equate canonically equivalent forms, as APFS does).
    private static func lists(_ directory: String, _ name: Substring) -> Bool {
        guard let dir = opendir(directory), let offset = MemoryLayout<dirent>.offset(of: \dirent.d_name) else { return false }
        defer { closedir(dir) }
        return name.withCString { wanted in
            while let entry = readdir(dir) {
                // The name through a pointer: an entry is only as long as its name, so copying the
                // whole `d_name` array could read past the end of readdir's buffer.
                let entryName = UnsafeRawPointer(entry).advanced(by: offset).assumingMemoryBound(to: CChar.self)
                if strcmp(entryName, wanted) == 0 { return true }
            }
            return false
        }
    }

    /// A `bodyFileName` with no file of that exact name.
    struct Missing: Error {
        let name: String
        /// A component of the path found in another case.
        let nearMiss: String?

        /// Why, for `X-Mock-Hint` and the console.
        var hint: String {
            var text = "bodyFileName \(name): no such file in __files (names are matched exactly, case included"
            if let nearMiss { text += "; found \(nearMiss)" }
            return text + ")"
        }
    }
}
