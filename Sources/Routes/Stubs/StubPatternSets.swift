import LinearRegex

/// The mappings without an exact path, for the request path: those with no URL matcher (every
/// path), and the `urlPathPattern` (with `urlPathTemplate`) and `urlPattern` ones, each kind compiled into one
/// `RegexSet`, so a request pays one pass over its path (and one over its URL), not one match
/// per pattern. A class: every request reads it from its loop's copy, and a struct of five
/// arrays and two sets would be retained field by field at each read.
final class StubPatternSets: Sendable {
    /// Mappings with no URL matcher, best first.
    let anyPath: [StubStore.Entry]
    /// `urlPathPattern` mappings, best first; `pathSet` reports them by index here.
    let pathEntries: [StubStore.Entry]
    let pathSet: RegexSet
    /// `urlPattern` mappings, best first; `urlSet` reports them by index here.
    let urlEntries: [StubStore.Entry]
    let urlSet: RegexSet

    /// From the store's pattern mappings (best first).
    init(_ patterns: [StubStore.Entry]) {
        var anyPath: [StubStore.Entry] = [], pathEntries: [StubStore.Entry] = [], urlEntries: [StubStore.Entry] = []
        var pathPatterns: [RegexPattern] = [], urlPatterns: [RegexPattern] = []
        for entry in patterns {
            switch entry.mapping.request.url {
            case .urlPathPattern(let r): pathEntries.append(entry); pathPatterns.append(r.pattern)
            case .urlPathTemplate(let t): pathEntries.append(entry); pathPatterns.append(t.regex.pattern)
            case .urlPattern(let r): urlEntries.append(entry); urlPatterns.append(r.pattern)
            case .any, .url, .urlPath: anyPath.append(entry)
            }
        }
        self.anyPath = anyPath
        self.pathEntries = pathEntries
        self.urlEntries = urlEntries
        pathSet = RegexSet(pathPatterns)
        urlSet = RegexSet(urlPatterns)
    }

    static let empty = StubPatternSets([])

    var isEmpty: Bool { anyPath.isEmpty && pathEntries.isEmpty && urlEntries.isEmpty }

    /// One thread's DFA caches for the two sets.
    final class Caches {
        let path: RegexSet.Cache
        let url: RegexSet.Cache

        init(_ sets: StubPatternSets) {
            path = sets.pathSet.makeCache()
            url = sets.urlSet.makeCache()
        }
    }

    /// The mappings whose URL matcher accepts the request, best first, and how many passes over
    /// a text that took (one per non-empty set). Without caches the Pike VM answers.
    func candidates(path: String, url: String, caches: Caches?) -> (entries: [StubStore.Entry], passes: Int) {
        var found = anyPath
        var passes = 0
        if !pathSet.isEmpty {
            passes += 1
            for i in pathSet.matches(path, cache: caches?.path) { found.append(pathEntries[i]) }
        }
        if !urlSet.isEmpty {
            passes += 1
            for i in urlSet.matches(url, cache: caches?.url) { found.append(urlEntries[i]) }
        }
        if found.count > anyPath.count { found.sort { $0.precedes($1) } }
        return (found, passes)
    }

    /// Instructions a set of these patterns would hold (the store caps it).
    static func instructions(of mapping: StubMapping) -> Int {
        switch mapping.request.url {
        case .urlPathPattern(let r), .urlPattern(let r): return r.pattern.instructionCount
        case .urlPathTemplate(let t): return t.regex.pattern.instructionCount
        case .any, .url, .urlPath: return 0
        }
    }
}
