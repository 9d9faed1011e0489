/// The pieces body readers are built from: the query, the media type, form and multipart fields.
extension HTTPRequest {
    /// The query string's parameters, decoded (`+` is a space, escapes are UTF-8).
    package var queryParameters: Parameters { FormDecoding.parseForm(query) }

    /// The media type of the body, lowercased, without parameters (`application/json`); "" without one.
    package var mediaType: String {
        guard let ct = headers["Content-Type"] else { return "" }
        // On the bytes in place: read on every login, where splitting and lowercasing by Character
        // cost more than the rest of the login. Plain lowercase ASCII only (the usual header); anything else,
        // nil here, takes the general path below.
        var text = ct
        let plainEnd: Int? = text.withUTF8 { bytes in
            guard let first = bytes.first, first != UInt8(ascii: " ") && first != UInt8(ascii: "\t") && first != UInt8(ascii: ";") else {
                return nil
            }
            var end = 0, i = 0
            for byte in bytes {
                if byte >= 0x80 || byte &- UInt8(ascii: "A") < 26 { return nil }
                if byte == UInt8(ascii: ";") { break }
                i &+= 1
                if byte != UInt8(ascii: " ") && byte != UInt8(ascii: "\t") { end = i }
            }
            return end
        }
        if let end = plainEnd {
            return end == ct.utf8.count ? ct : String(decoding: ct.utf8.prefix(end), as: UTF8.self)
        }
        let type = ct.split(separator: ";", maxSplits: 1).first.map { $0.trimmingASCIISpaces() } ?? ""
        return type.lowercased()
    }

    /// Whether the body, whatever its Content-Type, looks like a JSON object or array (the first
    /// byte past white space): the mistake hints name.
    package var bodyLooksLikeJSON: Bool {
        for byte in body {
            switch byte {
            case 0x20, 0x09, 0x0A, 0x0D: continue
            case UInt8(ascii: "{"), UInt8(ascii: "["): return true
            default: return false
            }
        }
        return false
    }

    /// Why a request's parameters cannot be read.
    package enum ParameterProblem: Error, Equatable, Sendable {
        case invalidUTF8, invalidMultipart
    }

    /// The fields of an `application/x-www-form-urlencoded` body, or why they cannot be trusted.
    package func urlEncodedFields() -> Result<Parameters, ParameterProblem> {
        guard body.withUnsafeBufferPointer(UTF8Validator.isValid),
              let fields = FormDecoding.strictParseForm(bodyText) else { return .failure(.invalidUTF8) }
        return .success(fields)
    }

    /// The text fields of a `multipart/form-data` body, or why they cannot be trusted.
    package func multipartFields() -> Result<Parameters, ParameterProblem> {
        guard let ct = headers["Content-Type"], let boundary = Multipart.boundary(fromContentType: ct),
              Multipart.parse(body: body, boundary: boundary) != nil else { return .failure(.invalidMultipart) }
        guard let fields = Multipart.parse(body: body, boundary: boundary, strict: true) else { return .failure(.invalidUTF8) }
        return .success(fields)
    }

    /// The query's fields, strictly decoded (escapes must spell UTF-8).
    package func strictQueryParameters() -> Result<Parameters, ParameterProblem> {
        guard let params = FormDecoding.strictParseForm(query) else { return .failure(.invalidUTF8) }
        return .success(params)
    }
}
