#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// The state file's real path: symbolic links and `.`/`..` resolved, so the lock, the base, its
/// logs and temporary files are all the one file's, whichever name a server was given (through a
/// symlink, a second server once started, replaced the link with a file and diverged).
package enum ResolvedPath {
    /// `path` resolved (`realpath`); for a file not yet created, its directory resolved and the
    /// name kept. `path` itself when even the directory cannot be resolved (the open then says why).
    package static func of(_ path: String) -> String {
        if let real = resolve(path) { return real }
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        guard !name.isEmpty, let real = resolve(directory.isEmpty ? "/" : directory) else { return path }
        return real == "/" ? "/" + name : real + "/" + name
    }

    private static func resolve(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
