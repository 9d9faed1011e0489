/// WireMock's `--use-chunked-encoding`: which stub answers are framed by `Transfer-Encoding:
/// chunked` instead of `Content-Length`. A mapping that gives its own `Content-Length` is sent
/// with a length whatever the policy, as WireMock sends it; so is every answer to HTTP/1.0.
package enum StubChunkedEncoding: String, Sendable, Equatable, CaseIterable {
    /// Every stub answer (WireMock's default).
    case always
    /// None: each is sent with `Content-Length`.
    case never
    /// Only a `bodyFileName` answer.
    case bodyFile = "body_file"

    /// The policy a flag or setting names, in any case; nil for another word.
    package init?(policy: String) { self.init(rawValue: policy.lowercased()) }

    /// What a refusal of another word says the policies are.
    package static let choices = "always, never or body_file"

    /// Whether an answer is chunked; `fromFile`: its body is a `bodyFileName`; `givesLength`:
    /// its mapping sets `Content-Length`.
    func chunks(fromFile: Bool, givesLength: Bool) -> Bool {
        if givesLength { return false }
        switch self {
        case .always: return true
        case .never: return false
        case .bodyFile: return fromFile
        }
    }
}
