#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Replaces a file so that a reader (or a restart after SIGKILL or a power cut) sees either the
/// old contents or the new, never a mix: write a temporary file in the same directory, flush it
/// to the device, `rename` it over the old one, then flush the directory so the rename itself
/// is durable. Every call goes through `Sys` (F_FULLFSYNC on Darwin).
package enum DurableFile {
    /// A step that failed, with the system's reason.
    package struct Failure: Error, CustomStringConvertible {
        package let description: String
        package init(description: String) { self.description = description }
    }

    /// The name prefix of the temporary files written beside `path` (`.NAME.`), for clearing
    /// leftovers of a killed process.
    package static func temporaryPrefix(of path: String) -> String {
        ".\(URL(fileURLWithPath: path).lastPathComponent)."
    }

    package static func replace(_ path: String, with data: Data) throws(Failure) {
        try commit([stage(path, with: data)])
    }

    /// Flushes the directory holding `path`, so a new name or a rename in it is durable.
    static func flushDirectory(of path: String) {
        let dirfd = Sys.openReadOnly(URL(fileURLWithPath: path).deletingLastPathComponent().path)
        if dirfd >= 0 {
            _ = Sys.flushToStorage(dirfd)
            Sys.close(dirfd)
        }
    }

    /// `what`, with the system's reason for the last call's failure.
    static func failure(_ what: String) -> Failure {
        Failure(description: "\(what): \(Sys.errorText(Sys.lastError))")
    }
}
