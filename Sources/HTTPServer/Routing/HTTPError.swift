/// The one error a handler throws: a status, a message the owning system words in its own body
/// shape (its route group's `errorShape`), and an optional hint (README, "Hints").
package struct HTTPError: Error, Sendable, Equatable {
    package var status: HTTPStatus
    package var message: String
    /// The likely client mistake and its fix; sent as `X-Mock-Hint`, never in the body.
    package var hint: String?

    package init(_ status: HTTPStatus, _ message: String, hint: String? = nil) {
        self.status = status
        self.message = message
        self.hint = hint
    }

    /// This error with a hint, unless it already has one.
    package func hinted(_ hint: String) -> HTTPError {
        var copy = self
        if copy.hint == nil { copy.hint = hint }
        return copy
    }
}
