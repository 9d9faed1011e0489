#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif
import Foundation

/// Replaces a file so that a reader (or a restart after SIGKILL or a power cut) sees either the
/// old contents or the new, never a mix: write a temporary file in the same directory, `fsync`
/// it, `rename` it over the old one, then `fsync` the directory so the rename itself is durable.
enum AtomicFile {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static func replace(_ path: String, with data: Data) throws {
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent().path
        // Same directory, so the rename never crosses a file system; the pid keeps two servers
        // pointed at one file from writing into each other's temporary file.
        let temporary = url.deletingLastPathComponent().appendingPathComponent("\(temporaryPrefix(url))\(getpid()).tmp").path

        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw failure("cannot create \(temporary)") }
        var ok = false
        defer {
            if !ok { unlink(temporary) }
        }
        do {
            defer { close(fd) }
            try data.withUnsafeBytes { raw in
                var offset = 0
                while offset < raw.count {
                    guard let base = raw.baseAddress else { break }
                    let n = write(fd, base + offset, raw.count - offset)
                    if n < 0 {
                        if errno == EINTR { continue }
                        throw failure("cannot write \(temporary)")
                    }
                    offset += n
                }
            }
            guard fsync(fd) == 0 else { throw failure("cannot flush \(temporary) to disk") }
        }
        guard rename(temporary, path) == 0 else { throw failure("cannot rename \(temporary) over \(path)") }
        ok = true
        // Without this the rename may still be only in memory when the machine goes down.
        let dirfd = open(directory, O_RDONLY | O_CLOEXEC)
        if dirfd >= 0 {
            _ = fsync(dirfd)
            close(dirfd)
        }
    }

    private static func temporaryPrefix(_ url: URL) -> String { ".\(url.lastPathComponent)." }

    /// Removes temporary files a killed process left beside `path` (the file itself is whole:
    /// a write that did not reach its rename changed nothing).
    static func removeLeftovers(of path: String) {
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent()
        let prefix = temporaryPrefix(url)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return }
        for name in names where name.hasPrefix(prefix) && name.hasSuffix(".tmp") {
            try? FileManager.default.removeItem(at: directory.appendingPathComponent(name))
        }
    }

    private static func failure(_ what: String) -> Failure {
        Failure(description: "\(what): \(String(cString: strerror(errno)))")
    }
}
