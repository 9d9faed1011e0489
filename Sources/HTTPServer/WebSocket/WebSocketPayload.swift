/// One data message as the wire carries it: text or binary, and its payload bytes. A received
/// text message's bytes are UTF-8 (the codec checked them, RFC 6455 §8.1), and one built to send
/// must be too. Messages travel in this form from the frame to the handler and from the reply to
/// the encoder, with no `String` on the way; `WebSocketMessage` is the decoded form, for handlers
/// that want text.
///
/// `@usableFromInline`: used on hot paths in other targets (the gateway builds one per reply); the
/// optimiser copies into another module only the bodies it may see from there (README, "Layout").
@usableFromInline package struct WebSocketPayload: Sendable, Equatable {
    /// Text (opcode 1) or binary (opcode 2).
    @usableFromInline package let isText: Bool
    /// The payload; UTF-8 when `isText`.
    @usableFromInline package let bytes: [UInt8]

    /// A text message of `utf8`, which must be valid UTF-8: a received text message's bytes, or
    /// text this server wrote.
    @usableFromInline package init(utf8Text utf8: [UInt8]) {
        isText = true
        bytes = utf8
    }

    /// A binary message.
    package static func binary(_ bytes: [UInt8]) -> WebSocketPayload { WebSocketPayload(isText: false, bytes: bytes) }

    /// A text message of `text`'s UTF-8.
    package static func text(_ text: String) -> WebSocketPayload { WebSocketPayload(isText: true, bytes: Array(text.utf8)) }

    /// The message in its payload form.
    package init(_ message: WebSocketMessage) {
        switch message {
        case .text(let text): self = .text(text)
        case .binary(let bytes): self = .binary(bytes)
        }
    }

    private init(isText: Bool, bytes: [UInt8]) {
        self.isText = isText
        self.bytes = bytes
    }

    /// The decoded form (a text message's bytes as a `String`).
    package var message: WebSocketMessage {
        isText ? .text(String(decoding: bytes, as: UTF8.self)) : .binary(bytes)
    }

    /// Appends an unmasked, final frame carrying it (text → opcode 1, binary → opcode 2).
    package func appendFrame(to buffer: inout [UInt8]) {
        WebSocketFrameHeader.encode(fin: true, opcode: isText ? WebSocketOpcode.text : WebSocketOpcode.binary,
                                    payloadLength: bytes.count, into: &buffer)
        buffer.append(contentsOf: bytes)
    }
}
