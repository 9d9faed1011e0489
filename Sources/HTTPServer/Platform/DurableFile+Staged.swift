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
    /// names are durable. All or none: a step that fails puts back every file already renamed
    /// (its old version, or no file where there was none) and removes the files not yet renamed,
    /// so a refused change leaves nothing of itself on disk.
    package static func commit(_ staged: [Staged]) throws(Failure) {
        var renamed: [(file: Staged, backup: String?)] = []
        for (i, file) in staged.enumerated() {
            // Every file but the last keeps its old version under a second name (a hard link, no
            // copy) until all are in place; the last one's failure has nothing of its own to undo.
            var backup: String?
            if i < staged.count - 1 {
                do throws(Failure) { backup = try keepOldVersion(of: file) } catch {
                    rollBack(renamed)
                    discard(Array(staged[i...]))
                    throw error
                }
            }
            guard Sys.rename(file.temporary, file.path) == 0 else {
                let failed = failure("cannot rename \(file.temporary) over \(file.path)")
                if let backup { Sys.unlink(backup) }
                rollBack(renamed)
                discard(Array(staged[i...]))
                throw failed
            }
            renamed.append((file, backup))
        }
        for done in renamed { if let backup = done.backup { Sys.unlink(backup) } }
        // Without this a rename may still be only in memory when the machine goes down.
        flushDirectories(of: staged.map(\.path))
    }

    /// A second name for the file at `file.path` (nil: there is none, a new file), so `rollBack`
    /// can put it back. A directory in its place refuses the change here, before any rename.
    private static func keepOldVersion(of file: Staged) throws(Failure) -> String? {
        let backup = file.temporary + ".old"
        // A leftover of a killed process that had this pid.
        Sys.unlink(backup)
        if link(file.path, backup) == 0 { return backup }
        let error = Sys.lastError
        if error == ENOENT { return nil }
        // A file system without hard links: a copy of a regular file does the same.
        let type = (try? FileManager.default.attributesOfItem(atPath: file.path))?[.type] as? FileAttributeType
        if type == .typeRegular, (try? FileManager.default.copyItem(atPath: file.path, toPath: backup)) != nil {
            return backup
        }
        throw Failure(description: "cannot keep the old \(file.path) until the change is made: \(Sys.errorText(error))")
    }

    /// Puts back the files `commit` renamed before a later step failed, newest first.
    private static func rollBack(_ renamed: [(file: Staged, backup: String?)]) {
        for done in renamed.reversed() {
            if let backup = done.backup { _ = Sys.rename(backup, done.file.path) } else { Sys.unlink(done.file.path) }
        }
        flushDirectories(of: renamed.map(\.file.path))
    }

    /// Flushes each directory of `paths` once.
    private static func flushDirectories(of paths: [String]) {
        var flushed = Set<String>()
        for path in paths where flushed.insert(URL(fileURLWithPath: path).deletingLastPathComponent().path).inserted {
            flushDirectory(of: path)
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
