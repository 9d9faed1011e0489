import Foundation

/// Finds the default `seed.json` when none is given: the working directory first, then the
/// folders above the executable (so `.build/release/mock-server` started elsewhere finds the repository's copy).
enum SeedLocator {
    static func resolve(_ path: String, explicitlyGiven: Bool) -> String {
        let fm = FileManager.default
        if explicitlyGiven || fm.fileExists(atPath: path) || path.hasPrefix("/") { return path }
        var dir = URL(fileURLWithPath: CommandLine.arguments.first ?? ".").resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<5 {
            let candidate = dir.appendingPathComponent(path).path
            if fm.fileExists(atPath: candidate) { return candidate }
            dir = dir.deletingLastPathComponent()
        }
        return path
    }
}
