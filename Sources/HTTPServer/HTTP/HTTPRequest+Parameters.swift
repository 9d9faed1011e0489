import Foundation

extension HTTPRequest {
    /// The query string's parameters, decoded (`+` is a space, escapes are UTF-8).
    public var queryParameters: Parameters { FormDecoding.parseForm(query) }

    /// The media type of the body, lowercased, without parameters (`application/json`).
    public var mediaType: String {
        guard let ct = headers["Content-Type"] else { return "" }
        let type = ct.split(separator: ";", maxSplits: 1).first.map { $0.trimmingASCIISpaces() } ?? ""
        return type.lowercased()
    }

    /// Parameters carried by the body: url-encoded form, multipart form or a flat JSON object
    /// (non-string JSON values are given as their JSON text, `true`, `12`). Empty for other bodies.
    public var bodyParameters: Parameters {
        if body.isEmpty { return Parameters() }
        let type = mediaType
        if type == "multipart/form-data", let ct = headers["Content-Type"], let boundary = Multipart.boundary(fromContentType: ct) {
            return Multipart.parse(body: body, boundary: boundary) ?? Parameters()
        }
        if type == "application/json" || (type.isEmpty && body.first == UInt8(ascii: "{")) {
            guard let object = JSON.parseObject(body) else { return Parameters() }
            var result = Parameters()
            for (key, value) in object.sorted(by: { $0.key < $1.key }) {
                switch value {
                case let s as String: result.append(key, s)
                case is NSNull: continue
                case let n as NSNumber:
                    // Booleans arrive as NSNumber; keep them readable.
                    if JSON.isBool(n) { result.append(key, n.boolValue ? "true" : "false") }
                    else { result.append(key, n.stringValue) }
                default: result.append(key, String(decoding: JSON.serialize(value), as: UTF8.self))
                }
            }
            return result
        }
        // application/x-www-form-urlencoded, or a form posted without a content type.
        return FormDecoding.parseForm(bodyText)
    }

    /// Why a request's parameters cannot be read.
    public enum ParameterProblem: Error, Equatable, Sendable {
        case invalidUTF8, invalidJSON, invalidMultipart
    }

    /// `allParameters`, or why they cannot be trusted: text that is not UTF-8, a JSON body that
    /// does not parse as an object, a multipart body that breaks its boundaries. For handlers
    /// that must refuse bad input rather than read it with replacement characters.
    public func validatedParameters() -> Result<Parameters, ParameterProblem> {
        guard var params = FormDecoding.strictParseForm(query) else { return .failure(.invalidUTF8) }
        if body.isEmpty { return .success(params) }
        let type = mediaType
        if type == "multipart/form-data" {
            guard let ct = headers["Content-Type"], let boundary = Multipart.boundary(fromContentType: ct),
                  Multipart.parse(body: body, boundary: boundary) != nil else { return .failure(.invalidMultipart) }
            guard let fields = Multipart.parse(body: body, boundary: boundary, strict: true) else { return .failure(.invalidUTF8) }
            params.append(contentsOf: fields)
        } else if type == "application/json" || (type.isEmpty && body.first == UInt8(ascii: "{")) {
            guard JSON.parseObject(body) != nil else { return .failure(.invalidJSON) }
            params.append(contentsOf: bodyParameters)
        } else {
            guard body.withUnsafeBufferPointer(UTF8Validator.isValid),
                  let fields = FormDecoding.strictParseForm(bodyText) else { return .failure(.invalidUTF8) }
            params.append(contentsOf: fields)
        }
        return .success(params)
    }

    /// Query parameters followed by body parameters, so a lookup finds the query's value first.
    public var allParameters: Parameters {
        var p = queryParameters
        p.append(contentsOf: bodyParameters)
        return p
    }
}
