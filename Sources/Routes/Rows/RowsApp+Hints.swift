import HTTPServer
import EmulationKit

extension AuthorizationHints {
    /// For the rows app, which expects the raw token: why `header` was refused, when the mistake is a known one.
    static func rawExpected(_ header: String?) -> String? {
        guard let header else { return "The request has no Authorization header; send the token from POST /auth/login as its value." }
        if isWholeLoginAnswer(header) { return wholeAnswer }
        let parts = header.split(separator: " ", maxSplits: 1)
        if parts.count == 2, parts[0].equalsIgnoringASCIICase("Bearer") { return RowsApp.bearerHint }
        return nil
    }
}
