import EmulationKit
import HTTPServer

/// The gateway's message vocabulary, for fault rules, log lines and the journal: every message is
/// JSON with a `type` and a `sequence_id` its reply echoes. A message is read once, here, and
/// the control plane and the handler share the reading.
extension CustomerGateway {
    /// The message parsed once (its keys and type interned), with its `type` and `sequence_id`.
    package static func readMessage(_ message: [UInt8]) -> MessageReading? {
        read(message)
    }

    /// `readMessage`, never nil: every gateway message has a reading (nil fields when it is not JSON).
    static func read(_ message: [UInt8]) -> MessageReading {
        let json = JSONValue.parse(message, words: CustomerGateway.words)
        return MessageReading(json: json, type: json?["type"]?.string, id: json?["sequence_id"])
    }

    /// `{{sequence_id}}` replaced by the message's `sequence_id` as JSON (a string quoted, a
    /// number not; a fresh UUID when the message has none, as the gateway does). On the reply's
    /// bytes: the text is JSON a test posted, and a String search for the placeholder cost
    /// several times the rest of the message's path.
    package static func scriptedReply(_ text: [UInt8], to message: MessageReading, random: any RandomSource) -> [UInt8] {
        let placeholder: StaticString = "{{sequence_id}}"
        return placeholder.withUTF8Buffer { placeholder in
            guard let first = placeholder.first, text.count >= placeholder.count else { return text }
            var out: [UInt8] = []
            var id: [UInt8]?
            var copied = 0, i = 0
            while i + placeholder.count <= text.count {
                guard text[i] == first, text[i..<(i + placeholder.count)].elementsEqual(placeholder) else {
                    i += 1
                    continue
                }
                out.append(contentsOf: text[copied..<i])
                // One value for every placeholder (one fresh UUID when the message has none).
                let value = id ?? sequenceIdJSON(message, random: random)
                id = value
                out.append(contentsOf: value)
                i += placeholder.count
                copied = i
            }
            guard copied > 0 else { return text }
            out.append(contentsOf: text[copied...])
            return out
        }
    }

    /// The message's `sequence_id` as JSON; a fresh UUID, quoted, when it has none.
    private static func sequenceIdJSON(_ message: MessageReading, random: any RandomSource) -> [UInt8] {
        var out: [UInt8] = []
        switch message.id {
        case nil, .null?: JSONText.appendQuoted(random.token(), to: &out)
        case let value?: value.appendJSON(to: &out)
        }
        return out
    }
}
