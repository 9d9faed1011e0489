import HTTPServer

/// A request body read as Vapor 4's `req.content.decode` reads it (the rows app's framework):
/// the Content-Type alone decides: JSON, a url-encoded form or multipart; anything else, or
/// none, is 415. Field errors carry Vapor's reasons.
package struct VaporContent {
    private enum Fields {
        case json(JSONValue)
        case form(Parameters)
    }

    private let fields: Fields
    /// A hint for every missing field: the body was JSON under a form type.
    private let missingFieldHint: String?

    static let missingContentTypeHint = "The request has no Content-Type header; send Content-Type: application/json with the JSON body."
    static let jsonUnderFormHint = "The body is JSON but the Content-Type says form; send Content-Type: application/json (URLSession sends form by default)."

    /// Reads the body; `expected` describes it in the messages (`{"email": String, …}`).
    /// Borrowed: an initializer takes its arguments owned, which copied the whole request (and
    /// released it after) on every login.
    package init(_ request: borrowing HTTPRequest, expected: String, words: JSONWords = .none) throws(HTTPError) {
        var hint: String?
        switch request.mediaType {
        case "":
            throw HTTPError(.unsupportedMediaType, "Unsupported Media Type", hint: VaporContent.missingContentTypeHint)
        case "application/json":
            guard !request.body.isEmpty else { throw HTTPError(.badRequest, "Request body is empty: expected JSON \(expected)") }
            guard let value = JSONValue.parse(request.body, words: words) else { throw HTTPError(.badRequest, "Request body is not valid JSON") }
            guard value.isObject else { throw HTTPError(.badRequest, "Request body must be a JSON object \(expected)") }
            fields = .json(value)
        case "application/x-www-form-urlencoded":
            fields = .form(FormDecoding.parseForm(request.bodyText))
            if request.bodyLooksLikeJSON { hint = VaporContent.jsonUnderFormHint }
        case "multipart/form-data":
            guard case .success(let parts) = request.multipartFields() else {
                throw HTTPError(.badRequest, "Request body is not valid multipart/form-data")
            }
            fields = .form(parts)
        case let other:
            let typeHint = request.bodyLooksLikeJSON
                ? "Content-Type \(VaporContent.ascii(other)) is not decoded; send Content-Type: application/json with the JSON body."
                : "Content-Type \(VaporContent.ascii(other)) is not decoded; send JSON, a url-encoded form or multipart/form-data."
            throw HTTPError(.unsupportedMediaType, "Unsupported Media Type", hint: typeHint)
        }
        missingFieldHint = hint
    }

    /// The string under `key`, or Vapor's 400 for a missing or non-string value.
    package func string(_ key: String) throws(HTTPError) -> String {
        switch fields {
        case .json(let object):
            switch object[key] {
            case nil, .null?: throw HTTPError(.badRequest, "Value required for key '\(key)'")
            case .string(let text)?: return text
            default: throw HTTPError(.badRequest, "Value of type 'String' required for key '\(key)'")
            }
        case .form(let parameters):
            // Vapor's form decoder matches names exactly.
            guard let value = parameters.items.first(where: { $0.name == key })?.value else {
                throw HTTPError(.badRequest, "Value required for key '\(key)'", hint: missingFieldHint)
            }
            return value
        }
    }

    /// Printable ASCII only, so a hint stays one ASCII line whatever the client sent.
    package static func ascii(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.prefix(80).filter { $0.value >= 0x20 && $0.value < 0x7F }))
    }
}
