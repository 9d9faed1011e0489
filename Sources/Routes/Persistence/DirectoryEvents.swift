#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
import HTTPServer

/// What wakes a watcher on a system whose notification this library does not call itself:
/// the executable's FSEvents stream on macOS (CoreServices stays out of the libraries an iOS app
/// links). `wait` blocks until something may have changed (true) or `close` (false).
package protocol DirectoryWakeups: AnyObject, Sendable {
    /// The mechanism's name, for the log (`FSEvents`).
    var name: String { get }
    func wait() -> Bool
    func close()
}

/// Wakes a watcher's thread when something in its directories may have changed, so an idle
/// `--watch` costs nothing: inotify on Linux, elsewhere what `platformWakeups` makes (the
/// executable installs FSEvents on macOS). Nil where the system has no such notification here
/// (an app embedding the server on Darwin: docs/darwin-differences.md) or refuses one (the
/// per-user inotify instance or watch limit); the watcher polls then, as it does when a watch
/// cannot be added later.
///
/// An event only wakes the watcher: it then compares its fingerprint (names, sizes, times) as a
/// poll would, so a missed or extra event costs at most one comparison, never a wrong reload.
package final class DirectoryEvents: @unchecked Sendable {
    #if canImport(Glibc)
    /// What can change a file a watcher reads. Not `IN_MODIFY` (every write of a save in
    /// progress): `IN_CLOSE_WRITE` says the save is done; nor `IN_CREATE` of a file (its close
    /// or rename follows).
    private static let mask = UInt32(IN_CLOSE_WRITE | IN_ATTRIB | IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO
                                     | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR)
    private let inotify: Int32
    /// Read end, written end: a byte written wakes `wait` for good.
    private let wake: (read: Int32, write: Int32)
    private let recursive: Bool
    // The rest is touched only by the thread that calls `wait` (and `init`).
    /// Each watched directory by its watch descriptor.
    private var watched: [Int32: String] = [:]
    /// A directory that could not be watched: `wait` gives up after `fallbackInterval` too.
    private var incomplete = false
    #else
    private let wakeups: any DirectoryWakeups
    #endif
    private let fallbackInterval: Double
    private let closed = Locked(false)

    /// Makes the wakeups of `directories` (`recursive`: and every folder under them) where this
    /// library has no notification of its own; set once by the executable before any watcher.
    package static let platformWakeups = Locked<Boxed<@Sendable (_ directories: [String], _ recursive: Bool) -> (any DirectoryWakeups)?>?>(nil)

    /// How changes are seen: `inotify`, or the platform's wakeups' name.
    package var mechanism: String {
        #if canImport(Glibc)
        "inotify"
        #else
        wakeups.name
        #endif
    }

    /// Watches `directories` (`recursive`: and every subfolder, at any depth, including ones made
    /// later). Nil when the system gives no notification or refuses this one; `fallbackInterval`
    /// is how often `wait` returns anyway once a later subfolder could not be watched.
    package init?(directories: [String], recursive: Bool, fallbackInterval: Double) {
        self.fallbackInterval = fallbackInterval
        #if canImport(Glibc)
        let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { return nil }
        var pipeEnds: [Int32] = [-1, -1]
        guard pipe(&pipeEnds) == 0 else {
            Glibc.close(fd)
            return nil
        }
        // Glibc's module has no pipe2: the flags one by one (the write end never blocks on one byte).
        for end in pipeEnds { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        inotify = fd
        wake = (pipeEnds[0], pipeEnds[1])
        self.recursive = recursive
        for directory in directories { add(directory, depth: 0) }
        // Not one directory watched: nothing would ever wake the watcher.
        if watched.isEmpty { return nil }
        #else
        guard let make = DirectoryEvents.platformWakeups.withLock({ $0 }), let made = make.value(directories, recursive) else { return nil }
        wakeups = made
        #endif
    }

    deinit {
        #if canImport(Glibc)
        Glibc.close(inotify)
        Glibc.close(wake.read)
        Glibc.close(wake.write)
        #endif
    }

    /// Blocks until something may have changed (true), or until `close` (false). Called by one
    /// thread only, the watcher's.
    package func wait() -> Bool {
        #if canImport(Glibc)
        while !closed.withLock({ $0 }) {
            var fds = [pollfd(fd: inotify, events: Int16(POLLIN), revents: 0), pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0)]
            let timeout = incomplete ? Int32(fallbackInterval * 1000) : -1
            let n = poll(&fds, 2, timeout)
            if n < 0 {
                if errno == EINTR { continue }
                return false
            }
            if fds[1].revents != 0 { return false }
            if n == 0 { return true }
            if readEvents() { return true }
        }
        return false
        #else
        return !closed.withLock({ $0 }) && wakeups.wait()
        #endif
    }

    /// Ends `wait` for good, from any thread.
    package func close() {
        let first = closed.withLock { c -> Bool in
            defer { c = true }
            return !c
        }
        guard first else { return }
        #if canImport(Glibc)
        var byte: UInt8 = 1
        _ = Glibc.write(wake.write, &byte, 1)
        #else
        wakeups.close()
        #endif
    }

    #if canImport(Glibc)
    /// Watches `path` and, when recursive, its subfolders; a watch refused (the limit) makes the
    /// waits fall back to polling.
    private func add(_ path: String, depth: Int) {
        let wd = inotify_add_watch(inotify, path, DirectoryEvents.mask)
        if wd < 0 {
            // Not a directory, or gone since it was listed: nothing to watch.
            if errno != ENOTDIR && errno != ENOENT { incomplete = true }
            return
        }
        // The same directory twice (a symbolic link to it): its subfolders are watched already.
        guard watched.updateValue(path, forKey: wd) == nil, recursive, depth < 16,
              let names = try? FileManager.default.contentsOfDirectory(atPath: path) else { return }
        for name in names where !name.hasPrefix(".") {
            let inner = path + "/" + name
            var info = stat()
            if stat(inner, &info) == 0, info.st_mode & S_IFMT == S_IFDIR { add(inner, depth: depth + 1) }
        }
    }

    /// Drains the queued events; whether any can change what a watcher reads. A folder made or
    /// moved in is watched from now on.
    private func readEvents() -> Bool {
        var relevant = false
        let headerSize = MemoryLayout<inotify_event>.size
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(inotify, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            var offset = 0
            while offset + headerSize <= n {
                let (wd, mask, length) = buffer.withUnsafeBytes { raw in
                    (raw.loadUnaligned(fromByteOffset: offset, as: Int32.self),
                     raw.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self),
                     Int(raw.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self)))
                }
                let nameBytes = buffer[(offset + headerSize)..<min(n, offset + headerSize + length)].prefix { $0 != 0 }
                offset += headerSize + length
                if mask & UInt32(IN_Q_OVERFLOW) != 0 { relevant = true; continue }
                if mask & UInt32(IN_IGNORED) != 0 { watched[wd] = nil; relevant = true; continue }
                let isDirectory = mask & UInt32(IN_ISDIR) != 0
                if mask & UInt32(IN_CREATE) != 0 && !isDirectory { continue }
                relevant = true
                let name = String(decoding: nameBytes, as: UTF8.self)
                if recursive, isDirectory, mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0, !name.hasPrefix("."), let parent = watched[wd] {
                    add(parent + "/" + name, depth: 1)
                }
            }
        }
        return relevant
    }
    #endif
}
