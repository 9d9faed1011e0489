#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// A whole file's bytes, read with open/fstat/read. FoundationEssentials' `FileManager.contents`
/// and `Data(contentsOf:)` leak a 4 KiB buffer on every read of an empty file (swift 6.3.1, seen
/// under LeakSanitizer), and an empty change log is read at every start after a SIGKILL.
package enum FileBytes {
    /// The file's bytes; nil when it cannot be opened or read (errno says why).
    package static func read(_ path: String) -> [UInt8]? {
        let fd = Sys.openReadOnly(path)
        guard fd >= 0 else { return nil }
        defer { Sys.close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return nil }
        var bytes: [UInt8] = []
        var capacity = max(Int(info.st_size), 0)
        while true {
            // Read to the end even if the file grew after fstat; one more byte tells the end.
            let start = bytes.count
            bytes.append(contentsOf: repeatElement(0, count: capacity - start + 1))
            let n = bytes.withUnsafeMutableBytes { Sys.readFully(fd, into: UnsafeMutableRawBufferPointer(rebasing: $0[start...])) }
            bytes.removeLast(bytes.count - start - n)
            if start + n <= capacity { return bytes }
            capacity = bytes.count * 2
        }
    }
}
