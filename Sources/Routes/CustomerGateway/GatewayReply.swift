#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPServer
import EmulationKit

/// Builds gateway replies as JSON bytes directly (the payload of the reply's text frame, never a
/// String): this is a benchmark path, and the key order (`type`, `sequence_id`, `data`) stays the document's.
enum GatewayReply {
    /// A request's `sequence_id` as sent, whatever its JSON type: echoed verbatim at the top of
    /// a reply; inside `in_event`, where every value is a string, as text (a number's decimal text).
    struct SequenceId {
        let value: JSONValue

        /// The request's value; missing or `null` gets a fresh UUID.
        init(_ value: JSONValue?, random: @autoclosure () -> any RandomSource) {
            switch value {
            case nil, .null?: self.value = .string(random().token())
            case let v?: self.value = v
            }
        }

        var text: String {
            switch value {
            case .string(let s): return s
            case .number(let d): return JSONValue.numberText(d)
            default: return value.jsonText
            }
        }
    }

    /// The request as `CUSTOMER_ERROR` echoes it in `in_event`; every key is always a string.
    struct Event {
        var type = ""
        var email = ""
        /// Already masked.
        var password = ""

        static let empty = Event()
    }

    /// One entry of a validation error's `errors`.
    struct FieldError {
        var field: String
        var message: String
    }

    /// The token (its two words) and the expiration date are written straight into the reply:
    /// neither text needs an escape.
    static func apiToken(sequenceId: SequenceId, token: (high: UInt64, low: UInt64), expiration: Date) -> [UInt8] {
        var out = header("{\"type\":\"CUSTOMER_API_TOKEN\",\"sequence_id\":", sequenceId: sequenceId)
        append(",\"data\":{\"api_token\":\"", to: &out)
        UUIDText.append(high: token.high, low: token.low, to: &out)
        append("\",\"api_token_expiration_date\":\"", to: &out)
        ISO8601.append(expiration, to: &out)
        append("\"}}", to: &out)
        return out
    }

    static func error(sequenceId: SequenceId, code: String, description: String, event: Event, random: any RandomSource) -> [UInt8] {
        var out = header("{\"type\":\"CUSTOMER_ERROR\",\"sequence_id\":", sequenceId: sequenceId)
        append(",\"data\":", to: &out)
        appendErrorBody(code: code, description: description, sequenceId: sequenceId, event: event, random: random, to: &out)
        append("}}", to: &out)
        return out
    }

    static func validationError(sequenceId: SequenceId, errors: [FieldError], event: Event, random: any RandomSource) -> [UInt8] {
        var out = header("{\"type\":\"CUSTOMER_VALIDATION_ERROR\",\"sequence_id\":", sequenceId: sequenceId)
        append(",\"data\":", to: &out)
        appendErrorBody(code: "customer.validation", description: "Validation failed", sequenceId: sequenceId, event: event,
                        random: random, to: &out)
        append(",\"errors\":[", to: &out)
        for (index, error) in errors.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            append("{\"field\":", to: &out)
            JSONText.appendQuoted(error.field, to: &out)
            append(",\"message\":", to: &out)
            JSONText.appendQuoted(error.message, to: &out)
            out.append(UInt8(ascii: "}"))
        }
        append("]}}", to: &out)
        return out
    }

    // MARK: - Pieces

    /// `{"type":"…","sequence_id":` (a literal: the types need no escape), then the id as sent.
    private static func header(_ typeAndKey: StaticString, sequenceId: SequenceId) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(512)
        append(typeAndKey, to: &out)
        sequenceId.value.appendJSON(to: &out)
        return out
    }

    /// `{"error_description", "error_code", "in_event": {...}, "error_uuid"` without the closing brace.
    private static func appendErrorBody(code: String, description: String, sequenceId: SequenceId, event: Event,
                                        random: any RandomSource, to out: inout [UInt8]) {
        append("{\"error_description\":", to: &out)
        JSONText.appendQuoted(description, to: &out)
        append(",\"error_code\":", to: &out)
        JSONText.appendQuoted(code, to: &out)
        append(",\"in_event\":{\"type\":", to: &out)
        JSONText.appendQuoted(event.type, to: &out)
        append(",\"event_id\":", to: &out)
        JSONText.appendQuoted(random.token(), to: &out)
        append(",\"sequence_id\":", to: &out)
        JSONText.appendQuoted(sequenceId.text, to: &out)
        // A fresh UUID every time, for an unknown e-mail and a wrong password alike: a stable id
        // would tell which e-mails have accounts.
        append(",\"customer_id\":", to: &out)
        JSONText.appendQuoted(random.token(), to: &out)
        append(",\"email\":", to: &out)
        JSONText.appendQuoted(event.email, to: &out)
        append(",\"password\":", to: &out)
        JSONText.appendQuoted(event.password, to: &out)
        append("},\"error_uuid\":", to: &out)
        JSONText.appendQuoted(random.token(), to: &out)
    }

    @inline(__always)
    private static func append(_ literal: StaticString, to out: inout [UInt8]) {
        literal.withUTF8Buffer { out.append(contentsOf: $0) }
    }
}
