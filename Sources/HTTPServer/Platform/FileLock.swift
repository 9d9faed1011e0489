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

/// An exclusive advisory lock (`flock`) on a lock file beside a file this process owns, holding
/// the holder's pid: a second process that wants the same file learns who has it. The kernel
/// drops the lock when the process ends, however it ends (SIGKILL included).
package final class FileLock: Sendable {
    /// The lock file.
    package let path: String
    private let fd: Int32

    /// Another process holds the lock.
    package struct Held: Error, CustomStringConvertible {
        /// The lock file.
        package let path: String
        /// The holder's pid as it wrote it, if it could be read.
        package let holder: String?
        package var description: String { "locked by \(holder.map { "process \($0)" } ?? "another process") (lock file \(path))" }
    }

    /// `.NAME.lock` beside `file`. On a Mac's case-insensitive APFS, `State.json` and `state.json`
    /// are one file and `.State.json.lock` and `.state.json.lock` one lock file, so two servers
    /// naming the state file in different case still exclude each other (docs/darwin-differences.md).
    package static func lockPath(for file: String) -> String {
        let url = URL(fileURLWithPath: file)
        return url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).lock").path
    }

    private init(path: String, fd: Int32) {
        self.path = path
        self.fd = fd
    }

    /// The lock file cannot be made (a read-only file system, a directory that is not writable
    /// or does not exist): nothing beside `file` can be written either.
    package struct CannotCreate: Error, CustomStringConvertible {
        package let path: String
        /// The `errno` of the failed `open` (`EROFS`, `EACCES`, `ENOENT`, …).
        let errorNumber: Int32
        package var description: String { "cannot create the lock file \(path): \(Sys.errorText(errorNumber))" }
    }

    /// Takes the lock for `file` without waiting; throws `Held` naming the holder, or
    /// `CannotCreate` when the lock file cannot be made, or `DurableFile.Failure` when `flock` fails
    /// for another reason.
    package static func acquire(for file: String) throws -> FileLock {
        let path = lockPath(for: file)
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw CannotCreate(path: path, errorNumber: Sys.lastError)
        }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let error = Sys.lastError
            var buffer = [UInt8](repeating: 0, count: 32)
            let n = error == EWOULDBLOCK ? buffer.withUnsafeMutableBytes { Sys.readFully(fd, into: $0) } : 0
            Sys.close(fd)
            throw refusal(errno: error, path: path, holder: String(decoding: buffer[0..<n], as: UTF8.self))
        }
        _ = ftruncate(fd, 0)
        _ = Array("\(Sys.processID())\n".utf8).withUnsafeBytes { Sys.writeFully(fd, $0) }
        return FileLock(path: path, fd: fd)
    }

    /// Why `flock(LOCK_EX | LOCK_NB)` refused: only EWOULDBLOCK means another holder (the same
    /// errno on Linux and Darwin); anything else (ENOLCK, EOPNOTSUPP/ENOTSUP on a file system
    /// without flock, EINTR) is a failure to lock, reported with its errno, not blamed on a holder.
    static func refusal(errno error: Int32, path: String, holder text: String) -> any Error {
        guard error == EWOULDBLOCK else {
            return DurableFile.Failure(description: "cannot lock \(path): flock failed with errno \(error) (\(Sys.errorText(error)))")
        }
        let holder = text.trimmingWhitespace()
        return Held(path: path, holder: holder.isEmpty ? nil : holder)
    }

    /// Releases the lock (the process's end releases it too).
    package func release() {
        _ = flock(fd, LOCK_UN)
        Sys.close(fd)
    }
}
