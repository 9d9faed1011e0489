import HTTPServer

/// A body read as the Apiary mock behind SkyZone read it: anything goes. JSON whatever the
/// Content-Type says (Apiary never looked at it), else a url-encoded or multipart form, all
/// given as one JSON object (form fields as strings).
package struct ApiaryBody {
    package let object: JSONValue

    /// Reads the body; `expected` describes it in the 400 messages.
    package init(_ request: HTTPRequest, expected: String) throws(HTTPError) {
        guard !request.body.isEmpty else { throw HTTPError(.badRequest, "Request body is empty: expected JSON \(expected)") }
        if let value = JSONValue.parse(request.body) {
            guard value.isObject else { throw HTTPError(.badRequest, "Request body must be a JSON object \(expected)") }
            object = value
            return
        }
        // A body that says it is JSON and is not gets the JSON error, whatever it looks like.
        if request.mediaType.hasSuffix("json") { throw HTTPError(.badRequest, "Request body is not valid JSON") }
        let form: Result<Parameters, HTTPRequest.ParameterProblem>?
        switch request.mediaType {
        case "multipart/form-data": form = request.multipartFields()
        case "application/x-www-form-urlencoded": form = request.urlEncodedFields()
        default: form = request.bodyLooksLikeJSON ? nil : request.urlEncodedFields()
        }
        guard case .success(let fields)? = form, !fields.isEmpty, !request.bodyLooksLikeJSON else {
            throw HTTPError(.badRequest, "Request body is not valid JSON")
        }
        var members: [(key: String, value: JSONValue)] = []
        for (name, value) in fields where !members.contains(where: { $0.key == name }) {
            members.append((key: name, value: .string(value)))
        }
        object = .object(members)
    }
}
