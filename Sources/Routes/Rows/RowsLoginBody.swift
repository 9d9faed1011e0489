import EmulationKit

/// The rows app's login answer, `{"token":"<uuid>"}`, for a token's two words.
enum RowsLoginBody {
    private static let prefix: StaticString = "{\"token\":\""
    private static let suffix: StaticString = "\"}"

    /// The body's bytes, written in place: interpolating the token into a String and copying
    /// that into an Array cost more than the rest of the answer.
    static func bytes(high: UInt64, low: UInt64) -> [UInt8] {
        var body: [UInt8] = []
        body.reserveCapacity(48)
        prefix.withUTF8Buffer { body.append(contentsOf: $0) }
        UUIDText.append(high: high, low: low, to: &body)
        suffix.withUTF8Buffer { body.append(contentsOf: $0) }
        return body
    }
}
