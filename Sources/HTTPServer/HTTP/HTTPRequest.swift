/// One parsed HTTP/1.x request, body complete (chunked bodies already decoded).
@usableFromInline package struct HTTPRequest: Sendable {
    package var method: HTTPMethod
    /// The request target exactly as sent (`/rows/1?x=y`).
    package var target: String
    /// The path part of the target, still percent-encoded.
    package var path: String
    /// The query part of the target without `?`, still encoded; empty when absent.
    package var query: String
    package var version: HTTPVersion
    package var headers: HTTPHeaders
    package var body: [UInt8]

    package init(method: HTTPMethod, target: String, version: HTTPVersion = .http1_1,
                headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []) {
        // Split on the UTF-8 view: Character-wise search showed up in the request path's profile.
        if let q = target.utf8.firstIndex(of: UInt8(ascii: "?")) {
            self.init(method: method, target: target, path: String(Substring(target.utf8[..<q])),
                      query: String(Substring(target.utf8[target.utf8.index(after: q)...])),
                      version: version, headers: headers, body: body)
        } else {
            self.init(method: method, target: target, path: target, query: "",
                      version: version, headers: headers, body: body)
        }
    }

    /// The parser's initialiser: target, path and query already split from the bytes.
    init(method: HTTPMethod, target: String, path: String, query: String, version: HTTPVersion,
         headers: HTTPHeaders, body: [UInt8]) {
        self.method = method
        self.target = target
        self.path = path
        self.query = query
        self.version = version
        self.headers = headers
        self.body = body
    }

    /// The token of an `Authorization: Bearer <token>` header (scheme in any case), or nil.
    package var bearerToken: String? {
        guard let header = headers["Authorization"] else { return nil }
        let parts = header.trimmingASCIISpaces().split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].equalsIgnoringASCIICase("Bearer") else { return nil }
        let token = parts[1].trimmingASCIISpaces()
        return token.isEmpty ? nil : String(token)
    }

    /// Whether a Host value has only the characters of `uri-host[:port]` (RFC 3986); the parser
    /// refuses other values, and handlers building links from Host use the same rule.
    package static func isValidHost(_ value: String) -> Bool {
        value.utf8.allSatisfy(HTTPRequestParser.isHostByte)
    }

    /// The body as UTF-8 text (invalid sequences repaired).
    package var bodyText: String { String(decoding: body, as: UTF8.self) }

    /// Whether the client asked to keep the connection open after this request.
    var wantsKeepAlive: Bool {
        if version.major == 1 && version.minor == 0 {
            return headers.hasToken("keep-alive", in: "Connection")
        }
        return !headers.hasToken("close", in: "Connection")
    }
}
