#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// How far a request is from matching a pattern, for WireMock's near misses.
extension RequestPattern {
    /// The fraction of this pattern's parts the request does not match, 0 (a match) to 1: the
    /// method, the URL, each header, query parameter and cookie, each body pattern and the basic
    /// credentials count one each; an exact URL (`url`, `urlPath`) that differs counts by its edit
    /// distance, as WireMock scores it, so the closer URL ranks first. This is this server's own
    /// measure: WireMock weighs its parts, so the two order near misses alike in the usual cases
    /// (the closest mapping first) but their numbers differ.
    /// `budget`: the edit-distance cells the near-miss call has left (`StubEditDistance`).
    func distance(_ request: StubRequest, now: Date, budget: inout Int) -> Double {
        var parts = 0, misses = 0.0
        visitParts(of: request, now: now) { matched in
            parts += 1
            if !matched { misses += 1 }
            return true
        }
        switch url {
        case .url(let expected) where expected != request.url: misses -= 1 - StubEditDistance.fraction(expected, request.url, budget: &budget)
        case .urlPath(let expected) where expected != request.path: misses -= 1 - StubEditDistance.fraction(expected, request.path, budget: &budget)
        default: break
        }
        return misses / Double(parts)
    }
}
