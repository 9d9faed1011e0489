import EmulationKit
import HTTPServer

/// The gateway's message vocabulary, for fault rules, log lines and the journal: every message is
/// JSON with a `type` and a `sequence_id` its reply echoes. A message is read once, here, and
/// the control plane and the handler share the reading.
extension CustomerGateway {
    /// The message parsed once (its keys and type interned), with its `type` and `sequence_id`.
    public static func readMessage(_ message: [UInt8]) -> MessageReading? {
        read(message)
    }

    /// `readMessage`, never nil: every gateway message has a reading (nil fields when it is not JSON).
    static func read(_ message: [UInt8]) -> MessageReading {
        let json = JSONValue.parse(message, words: CustomerGateway.words)
        return MessageReading(json: json, type: json?["type"]?.string, id: json?["sequence_id"])
    }

    /// Its endpoint's handler, for a message the control plane has read.
    public func messageHandler(at pattern: String) -> MessageHandler? {
        guard pattern == CustomerGateway.path else { return nil }
        return { [self] message, connection in answer(message, on: connection) }
    }

    /// `{{sequence_id}}` replaced by the message's `sequence_id` as JSON (a string quoted, a
    /// number not; a fresh UUID when the message has none, as the gateway does).
    public static func scriptedReply(_ text: String, to message: MessageReading, random: any RandomSource) -> String {
        let placeholder = "{{sequence_id}}"
        guard text.contains(placeholder) else { return text }
        let json: String
        switch message.id {
        case nil, .null?: json = JSONText.quoted(random.token())
        case let value?: json = value.jsonText
        }
        return text.replacing(placeholder, with: json)
    }
}
