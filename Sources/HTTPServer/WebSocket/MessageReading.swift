/// One of a system's WebSocket messages, read (parsed) once by the system's vocabulary
/// (`EmulatedSystem.readMessage`): the fault stage matches message rules on its `type`, puts
/// its `id` on the log line and the journal's path, fills a scripted reply from it, and leaves the
/// same reading in the message's context (`MessageContext.reading`), which the endpoint answers from.
///
/// `@usableFromInline`: used on hot paths in other targets (the gateway reads every message into
/// one); the optimiser copies into another module only the bodies it may see from there (README,
/// "Layout").
@usableFromInline package struct MessageReading: Sendable {
    /// The message parsed as JSON; nil when it is not JSON.
    @usableFromInline package let json: JSONValue?
    /// Its type (the gateway's `LOGIN_CUSTOMER`): what message rules match and the journal shows
    /// as the path; nil when it has none.
    @usableFromInline package let type: String?
    /// The value that ties it to its reply (the gateway's `sequence_id`), as sent; nil when it has none.
    @usableFromInline package let id: JSONValue?

    /// A reading of a message parsed as `json`, with the vocabulary fields the system found in it.
    @usableFromInline package init(json: JSONValue?, type: String?, id: JSONValue?) {
        self.json = json
        self.type = type
        self.id = id
    }

    /// The id as a log line shows it: a string as it is, any other value as its JSON (a number
    /// as written); nil when it has none or it is `null`.
    package var idText: String? {
        switch id {
        case nil, .null?: return nil
        case .string(let text)?: return text
        case let value?: return value.jsonText
        }
    }
}
