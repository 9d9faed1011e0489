import EmulationKit
import HTTPServer

/// The gateway's message vocabulary, for fault rules and the journal: every message is JSON with
/// a `type` and a `sequence_id` its reply echoes.
extension CustomerGateway {
    public static func messageType(of message: [UInt8]) -> String? {
        JSONValue.parse(message)?["type"]?.string
    }

    /// Its `sequence_id` as text (a number as written).
    public static func messageId(of message: [UInt8]) -> String? {
        switch JSONValue.parse(message)?["sequence_id"] {
        case nil, .null?: return nil
        case .string(let text)?: return text
        case let value?: return value.jsonText
        }
    }

    /// `{{sequence_id}}` replaced by the message's `sequence_id` as JSON (a string quoted, a
    /// number not; a fresh UUID when the message has none, as the gateway does).
    public static func scriptedReply(_ text: String, to message: [UInt8], random: any RandomSource) -> String {
        let placeholder = "{{sequence_id}}"
        guard text.contains(placeholder) else { return text }
        let json: String
        switch JSONValue.parse(message)?["sequence_id"] {
        case nil, .null?: json = JSONText.quoted(random.token())
        case let value?: json = value.jsonText
        }
        return text.replacing(placeholder, with: json)
    }
}
