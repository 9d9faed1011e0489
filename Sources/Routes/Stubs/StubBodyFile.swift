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
            guard component != ".." else { return .failure(Missing(name: name, nearMiss: nil)) }
            if component == "." { continue }
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
            // Byte comparison: String's == equates canonically equivalent forms, as APFS does.
            guard entries.contains(where: { $0.utf8.elementsEqual(component.utf8) }) else {
                let folded = component.lowercased()
                return .failure(Missing(name: name, nearMiss: entries.first { $0.lowercased() == folded }))
            }
            path += "/" + component
        }
        guard let bytes = FileBytes.read(path) else { return .failure(Missing(name: name, nearMiss: nil)) }
        return .success(bytes)
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
