#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPServer

/// Request parameters bound as ASP.NET binds simple action parameters (musbooking's framework):
/// from a url-encoded form, a multipart form or the query string; names in any letter case.
/// A JSON body is not read: its fields count as absent, and the request remembers why.
package struct ASPNetParameters {
    package let parameters: Parameters
    /// The body was JSON, so nothing in it was bound (the hint of every error that follows).
    let ignoredJSONBody: Bool

    package static let untypedBodyHint = "The body has no Content-Type, so none of its fields were read; send it with Content-Type: application/x-www-form-urlencoded."
    package static let jsonBodyHint = "This server reads form fields, not JSON; send the fields as application/x-www-form-urlencoded or multipart/form-data."

    /// Refuses text that is not UTF-8 and multipart bodies that break their boundaries.
    package init(_ request: HTTPRequest, malformed: (HTTPRequest.ParameterProblem) -> HTTPError) throws(HTTPError) {
        var params: Parameters
        switch request.strictQueryParameters() {
        case .success(let p): params = p
        case .failure(let problem): throw malformed(problem)
        }
        var ignored = false
        if !request.body.isEmpty {
            let body: Result<Parameters, HTTPRequest.ParameterProblem>
            switch request.mediaType {
            case "multipart/form-data":
                body = request.multipartFields()
            case "application/x-www-form-urlencoded":
                // A JSON text under a form type parses as one nameless field: count it as JSON.
                ignored = request.bodyLooksLikeJSON
                body = ignored ? .success(Parameters()) : request.urlEncodedFields()
            case "":
                // No Content-Type: ASP.NET binds no body; a JSON text is the usual reason.
                ignored = request.bodyLooksLikeJSON
                body = .success(Parameters())
            default:
                ignored = request.mediaType.hasSuffix("json") || request.bodyLooksLikeJSON
                body = .success(Parameters())
            }
            switch body {
            case .success(let fields): params.append(contentsOf: fields)
            case .failure(let problem): throw malformed(problem)
            }
        }
        parameters = params
        ignoredJSONBody = ignored
    }

    /// The first value under any of the names, trimmed, or nil when absent or blank.
    package func text(_ names: String...) -> String? {
        guard let value = trimmed(names) else { return nil }
        return value.isEmpty ? nil : value
    }

    /// The value exactly as sent (passwords keep their spaces), nil when absent or empty.
    package func raw(_ name: String) -> String? {
        guard let value = parameters[name], !value.isEmpty else { return nil }
        return value
    }

    private func trimmed(_ names: [String]) -> String? {
        for name in names {
            if let value = parameters[name] { return value.trimmingWhitespace() }
        }
        return nil
    }
}
