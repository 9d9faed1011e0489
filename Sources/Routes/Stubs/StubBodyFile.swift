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
import HTTPServer

/// A `bodyFileName` looked up under `__files` by exact name: each component of the path must be an
/// entry of the directory listing, case included, so a Mac's case-insensitive volume does not find
/// `body.json` for `Body.json` where Linux would not. Unicode forms are equated (canonical
/// equivalence, as `String`'s `==`), and the entry is opened by its own bytes: Darwin's Foundation
/// writes names decomposed (NFD) while a mapping typed on a keyboard is composed (NFC), so a byte
/// comparison would miss `café.json` on a Mac only.
enum StubBodyFile {
    /// The file's bytes, or why there are none (the hint names a near miss: the same name in
    /// another case).
    static func read(_ name: String, in root: String) -> Result<[UInt8], Missing> {
        if let kept = StubFileCache.lookup(name, in: root) { return .success(kept) }
        var path = root
        for component in name.split(separator: "/") {
            guard component != "..", !component.utf8.contains(0) else { return .failure(Missing(name: name, nearMiss: nil)) }
            if component == "." { continue }
            guard let entry = entry(in: path, named: component) else {
                // Only a miss pays for the names (it is an error answer).
                let folded = component.lowercased()
                let entries = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
                return .failure(Missing(name: name, nearMiss: entries.first { $0.lowercased() == folded }))
            }
            path += "/" + entry
        }
        let before = StubFileCache.Identity.of(path)
        guard let bytes = FileBytes.read(path) else { return .failure(Missing(name: name, nearMiss: nil)) }
        if let before { StubFileCache.keep(name, in: root, path: path, before: before, bytes: bytes) }
        return .success(bytes)
    }

    /// The entry of `directory` that `name` names, spelled as on disk: the same bytes, or else a
    /// canonically equivalent name (another Unicode form of the same letters, same case).
    private static func entry(in directory: String, named name: Substring) -> String? {
        let wanted = Array(name.utf8)
        guard let names = listing(of: directory) else { return nil }
        if names.contains(wanted) { return String(name) }
        // An ASCII name has one form only; otherwise compare as text (String's `==` is canonical
        // equivalence, case-sensitive) with the entries that are not ASCII either.
        guard wanted.contains(where: { $0 >= 0x80 }) else { return nil }
        for bytes in names where bytes.contains(where: { $0 >= 0x80 }) {
            let text = String(decoding: bytes, as: UTF8.self)
            if text == name, Array(text.utf8) == bytes { return text }
        }
        return nil
    }

    /// The names of `directory`'s entries as bytes, from the kept listing while the directory is unchanged.
    private static func listing(of directory: String) -> Set<[UInt8]>? {
        var info = stat()
        guard stat(directory, &info) == 0 else { return nil }
        let version = DirectoryVersion(info)
        if let known = listings.withLock({ $0[directory] }), known.version == version {
            return known.names
        }
        guard let names = entryNames(directory) else { return nil }
        // A directory changed within the last seconds may change again within its timestamp's
        // resolution (one second on HFS+) without a new time: such a listing is not kept.
        if version.seconds + 2 < Int(time(nil)) {
            listings.withLock { cache in
                if cache.count >= maxListings { cache.removeAll() }
                cache[directory] = Listing(version: version, names: names)
            }
        }
        return names
    }

    /// The names of a directory's entries, as bytes.
    private static func entryNames(_ directory: String) -> Set<[UInt8]>? {
        guard let dir = opendir(directory), let offset = MemoryLayout<dirent>.offset(of: \dirent.d_name) else { return nil }
        defer { closedir(dir) }
        var names = Set<[UInt8]>()
        while let entry = readdir(dir) {
            // The name through a pointer: an entry is only as long as its name, so copying the
            // whole `d_name` array could read past the end of readdir's buffer.
            let name = UnsafeRawPointer(entry).advanced(by: offset).assumingMemoryBound(to: CChar.self)
            names.insert(Array(UnsafeRawBufferPointer(start: name, count: strlen(name))))
        }
        return names
    }

    /// A directory as it was listed: any entry added, removed or renamed changes its modification time.
    private struct DirectoryVersion: Equatable {
        let device: UInt64, inode: UInt64, seconds: Int, nanoseconds: Int

        init(_ info: stat) {
            #if canImport(Darwin)
            let time = info.st_mtimespec
            #else
            let time = info.st_mtim
            #endif
            device = UInt64(truncatingIfNeeded: info.st_dev)
            inode = UInt64(truncatingIfNeeded: info.st_ino)
            seconds = Int(time.tv_sec)
            nanoseconds = Int(time.tv_nsec)
        }
    }

    private struct Listing {
        let version: DirectoryVersion
        let names: Set<[UInt8]>
    }

    /// Listings by directory path, so a served file costs a `stat` of each directory, not a listing.
    private static let listings = Locked<[String: Listing]>([:])
    private static let maxListings = 256

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
