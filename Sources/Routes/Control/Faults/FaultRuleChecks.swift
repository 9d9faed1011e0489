import HTTPServer
import EmulationKit

extension FaultRuleDraft {
    /// Refuses a rule that could never fire (docs/control-plane.md): nothing is added, and the 400 says why.
    /// `owner` is the one rule of path ownership (the journal's), so a rule's `system` covers
    /// exactly the paths the journal gives that system.
    func checkItCanFire(systems: SystemCatalog, owner: (String) -> String?) throws {
        guard !isMessageRule else { return }
        if method == "WS" {
            throw Invalid("\"method\": \"WS\" names WebSocket messages; a rule on them needs \"system\": \"\(systems.messageTypedTitle)\" and a message type as \"path\"")
        }
        let pathOwner = FaultRuleDraft.owner(of: path, owner)
        if let system, let known = pathOwner, known != system {
            let owned = known.map { "the journal gives it \($0)" } ?? "no system owns it"
            throw Invalid("\(system) never answers \(path.text) (\(owned)); leave \"system\" out or give the system that owns the path")
        }
        // A message-typed system's HTTP paths are its WebSocket handshake: there is no body to cut.
        if let handshake = system ?? pathOwner ?? nil, systems.messageTypedNames.contains(handshake) {
            switch action {
            case .truncate, .malformedJSON:
                throw Invalid("a rule on \(handshake)'s WebSocket handshake takes delayMs, status, close or reset, not \(action.name)")
            default: break
            }
        }
    }

    /// The owner of every path the pattern can match, when one can tell: `.some(nil)` for a
    /// literal path no system owns, nil when a wildcard leaves it open.
    private static func owner(of pattern: PathPattern, _ owner: (String) -> String?) -> String?? {
        guard pattern.hasWildcard else { return .some(owner(pattern.text)) }
        // A fixed start that ends a segment decides the owner ("/api/*"); "/customer*" does not.
        guard let star = pattern.text.firstIndex(of: "*") else { return nil }
        let prefix = pattern.text[..<star]
        guard prefix.hasSuffix("/"), prefix.count > 1, let found = owner(prefix + "x") else { return nil }
        return .some(found)
    }
}
