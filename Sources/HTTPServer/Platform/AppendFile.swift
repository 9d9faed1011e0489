#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// A file written only at its end and flushed to the device on demand (a change log): each
/// `append` is followed by `sync` before anything depends on it; a failed append is cut back
/// with `truncate` so no partial record stays in front of the next one. F_FULLFSYNC on Darwin.
package final class AppendFile {
    package let path: String
    private let fd: Int32
    /// Bytes known to be whole records (the file's size after the last good sync).
    package private(set) var size: Int

    /// Creates the file (mode 0600; emptied when `truncating`) and flushes its directory entry.
    package init(path: String, truncating: Bool) throws(DurableFile.Failure) {
        self.path = path
        fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | (truncating ? O_TRUNC : 0), 0o600)
        guard fd >= 0 else { throw DurableFile.Failure(description: "cannot open \(path): \(Sys.errorText(Sys.lastError))") }
        var info = stat()
        size = fstat(fd, &info) == 0 ? Int(info.st_size) : 0
        guard Sys.flushToStorage(fd) == 0 else {
            let error = Sys.lastError
            Sys.close(fd)
            throw DurableFile.Failure(description: "cannot flush \(path): \(Sys.errorText(error))")
        }
        DurableFile.flushDirectory(of: path)
    }

    deinit { Sys.close(fd) }

    /// Appends `bytes` and flushes them to the device; on failure the file is cut back to `size`.
    package func appendAndSync(_ bytes: [UInt8]) throws(DurableFile.Failure) {
        let written = bytes.withUnsafeBytes { Sys.writeFully(fd, $0) }
        let synced = written && Sys.flushToStorage(fd) == 0
        guard synced else {
            let error = Sys.lastError
            _ = ftruncate(fd, off_t(size))
            throw DurableFile.Failure(description: "\(written ? "cannot flush" : "cannot write") \(path): \(Sys.errorText(error))")
        }
        size += bytes.count
    }
}
