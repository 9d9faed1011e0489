#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif
import HTTPServer

/// The bytes of `__files` entries already served, kept while the file is the one read: a hit costs
/// one `stat` of the resolved path instead of a directory check and an open, fstat, two reads and a
/// close (as nginx's `open_file_cache` keeps descriptors). A file counts as unchanged while its
/// device, inode, size, modification and status-change times are; a rename (another case of the
/// name on a Mac's case-insensitive volume included) changes the status-change time, so the exact
/// name is looked up again. Only files not changed in the last two seconds are kept (a timestamp's
/// resolution is a second on some volumes), and the cache is bounded in entries and bytes.
enum StubFileCache {
    /// What a cached file was when it was read.
    struct Identity: Equatable {
        let device: UInt64, inode: UInt64, size: Int64
        let modified: Int, modifiedNanos: Int, changed: Int, changedNanos: Int

        init(_ info: stat) {
            #if canImport(Darwin)
            let m = info.st_mtimespec, c = info.st_ctimespec
            #else
            let m = info.st_mtim, c = info.st_ctim
            #endif
            device = UInt64(truncatingIfNeeded: info.st_dev)
            inode = UInt64(truncatingIfNeeded: info.st_ino)
            size = Int64(info.st_size)
            modified = Int(m.tv_sec); modifiedNanos = Int(m.tv_nsec)
            changed = Int(c.tv_sec); changedNanos = Int(c.tv_nsec)
        }

        /// The identity of the regular file at `path`, or nil.
        static func of(_ path: String) -> Identity? {
            var info = stat()
            guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
            return Identity(info)
        }
    }

    struct Key: Hashable {
        let root: String, name: String
    }

    struct Entry {
        let path: String
        let identity: Identity
        let bytes: [UInt8]
    }

    /// At most this many files and bytes are kept; past either, the cache starts again empty.
    static let maxEntries = 1_024
    static let maxBytes = 64 << 20
    /// A larger file is read each time it is served, not kept.
    static let maxFileBytes = 4 << 20

    private struct Contents {
        var entries: [Key: Entry] = [:]
        var bytes = 0
    }

    private static let contents = Locked(Contents())

    /// The kept bytes of `name` under `root` if the file is still the one read.
    static func lookup(_ name: String, in root: String) -> [UInt8]? {
        guard let entry = contents.withLock({ $0.entries[Key(root: root, name: name)] }),
              Identity.of(entry.path) == entry.identity else { return nil }
        return entry.bytes
    }

    /// Keeps `bytes`, read from `path` while it had `before`, if the file still has it and was
    /// last changed more than two seconds before `now` (seconds since the epoch).
    static func keep(_ name: String, in root: String, path: String, before: Identity, bytes: [UInt8], now: Int = Int(time(nil))) {
        guard bytes.count <= maxFileBytes, Int64(bytes.count) == before.size,
              before.changed + 2 < now, before.modified + 2 < now,
              Identity.of(path) == before else { return }
        contents.withLock { c in
            let key = Key(root: root, name: name)
            if let old = c.entries[key] { c.bytes -= old.bytes.count }
            if c.entries.count >= maxEntries || c.bytes + bytes.count > maxBytes {
                c.entries.removeAll()
                c.bytes = 0
            }
            c.entries[key] = Entry(path: path, identity: before, bytes: bytes)
            c.bytes += bytes.count
        }
    }
}
