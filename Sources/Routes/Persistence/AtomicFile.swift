#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPServer

/// The state file's writes: `DurableFile` (the platform layer's temporary file, flush, rename and
/// directory flush), and clearing the temporary files a killed process left.
package enum AtomicFile {
    package typealias Failure = DurableFile.Failure

    package static func replace(_ path: String, with data: Data) throws {
        try DurableFile.replace(path, with: data)
    }

    /// Removes temporary files a killed process left beside `path` (the file itself is whole:
    /// a write that did not reach its rename changed nothing).
    package static func removeLeftovers(of path: String) {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
        let prefix = DurableFile.temporaryPrefix(of: path)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return }
        for name in names where name.hasPrefix(prefix) && name.hasSuffix(".tmp") {
            try? FileManager.default.removeItem(at: directory.appendingPathComponent(name))
        }
    }
}
