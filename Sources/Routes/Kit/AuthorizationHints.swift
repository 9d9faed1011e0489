import HTTPServer

/// The known client mistakes with an `Authorization` header, named the same way on every system
/// (README, "Hints"): the scheme left out or added, or the whole login answer sent as the token.
package enum AuthorizationHints {
    /// For systems that expect `Bearer <token>` (musbooking, SkyZone): why `header` did not carry one.
    package static func bearerExpected(_ header: String?, loginPath: String) -> String? {
        guard let header else {
            return "The request has no Authorization header; send \"Authorization: Bearer <token>\" with the token from \(loginPath)."
        }
        if isWholeLoginAnswer(header) { return wholeAnswer }
        if !hasScheme(header) {
            return "Authorization holds a raw token; this server expects \"Bearer <token>\" (the scheme, a space, then the token)."
        }
        return nil
    }

    /// For a `Bearer` value that names no session: the whole login answer after the scheme.
    package static func unknownBearer(_ token: String) -> String? {
        isWholeLoginAnswer(token) ? wholeAnswer : nil
    }

    package static let wholeAnswer = "Authorization holds the whole login answer ({\"token\": ...}); send only the token's value."

    /// `{"token": "…"}` (or any JSON object with a token field), as a client that forwards the
    /// login response's body sends it, with or without a scheme before it.
    package static func isWholeLoginAnswer(_ header: String) -> Bool {
        var text = Substring(header).trimmingASCIISpaces()
        if let space = text.firstIndex(of: " "), text[..<space].equalsIgnoringASCIICase("Bearer") {
            text = text[text.index(after: space)...].trimmingASCIISpaces()
        }
        return text.hasPrefix("{") && text.contains("\"token\"")
    }

    /// Whether the value starts with a scheme word and a space (`Bearer x`, `Token x`).
    private static func hasScheme(_ header: String) -> Bool {
        let parts = Substring(header).trimmingASCIISpaces().split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        return parts.count == 2 && parts[0].utf8.allSatisfy { ($0 | 0x20) >= 0x61 && ($0 | 0x20) <= 0x7A }
    }
}
