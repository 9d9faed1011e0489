#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

extension DurableFile {
    /// A file's new contents, written and flushed to a temporary file beside it, not yet in place.
    /// Staging every file of a change first and renaming them all after (`commit`) makes a change of
    /// several files fail before any of them is replaced when the disk refuses one.
    package struct Staged: Sendable {
        /// Where the contents go.
        package let path: String
        let temporary: String
    }

    /// Writes `data` beside `path` and flushes it to the device; `commit` puts it in place,
    /// `discard` drops it.
    package static func stage(_ path: String, with data: Data) throws(Failure) -> Staged {
        let url = URL(fileURLWithPath: path)
        // Same directory, so the rename never crosses a file system; the pid keeps two servers
        // pointed at one file from writing into each other's temporary file.
        let temporary = url.deletingLastPathComponent().appendingPathComponent("\(temporaryPrefix(of: path))\(Sys.processID()).tmp").path
        let fd = Sys.openForWriting(temporary)
        guard fd >= 0 else { throw failure("cannot create \(temporary)") }
        let written = data.withUnsafeBytes { Sys.writeFully(fd, $0) }
        let flushed = written && Sys.flushToStorage(fd) == 0
        let error = Sys.lastError
        Sys.close(fd)
        guard written, flushed else {
            Sys.unlink(temporary)
            throw Failure(description: "\(written ? "cannot flush \(temporary) to disk" : "cannot write \(temporary)"): \(Sys.errorText(error))")
        }
        return Staged(path: path, temporary: temporary)
    }

    /// Renames each staged file over its path, then flushes each directory once, so the new
    /// names are durable. A rename that fails stops it: the files not yet renamed are removed.
    package static func commit(_ staged: [Staged]) throws(Failure) {
        for (i, file) in staged.enumerated() where Sys.rename(file.temporary, file.path) != 0 {
            let failed = failure("cannot rename \(file.temporary) over \(file.path)")
            discard(Array(staged[i...]))
            throw failed
        }
        // Without this a rename may still be only in memory when the machine goes down.
        var flushed = Set<String>()
        for file in staged where flushed.insert(URL(fileURLWithPath: file.path).deletingLastPathComponent().path).inserted {
            flushDirectory(of: file.path)
        }
    }

    /// Removes staged files that will not be committed.
    package static func discard(_ staged: [Staged]) {
        for file in staged { Sys.unlink(file.temporary) }
    }

    /// Removes `path` and flushes its directory, so the removal survives a power cut. A file that
    /// is already gone is not an error.
    package static func remove(_ path: String) throws(Failure) {
        if unlink(path) != 0 && Sys.lastError != ENOENT {
            throw failure("cannot remove \(path)")
        }
        flushDirectory(of: path)
    }
}
