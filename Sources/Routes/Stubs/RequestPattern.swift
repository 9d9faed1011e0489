import HTTPServer

/// What a request must look like for a mapping to answer it (WireMock's `request` object), also
/// the body of `POST /__admin/requests/count` and `/find`.
package struct RequestPattern: Sendable {
    /// How the URL is matched; `any` when the mapping names none.
    enum URLMatch: Sendable {
        case any
        /// `url`: path and query exactly as sent.
        case url(String)
        /// `urlPath`: the path exactly, any query.
        case urlPath(String)
        /// `urlPattern`: a regular expression over path and query.
        case urlPattern(StubRegex)
        /// `urlPathPattern`: a regular expression over the path.
        case urlPathPattern(StubRegex)
    }

    let method: String?
    let url: URLMatch
    let headers: [(String, StringPattern)]
    let query: [(String, StringPattern)]
    let cookies: [(String, StringPattern)]
    let bodyPatterns: [StringPattern]
    /// `Authorization: Basic …` for these credentials, in lower case (compared ignoring case).
    let basicAuth: String?

    static let fields = ["method", "url", "urlPath", "urlPattern", "urlPathPattern", "queryParameters", "headers", "cookies",
                         "bodyPatterns", "basicAuthCredentials"]
    static let refused: [String: String] = [
        "formParameters": "formParameters is not supported: match the body with bodyPatterns contains or matches",
        "multipartPatterns": "multipartPatterns is not supported: match the body with bodyPatterns contains or matches",
        "customMatcher": "custom matchers are not supported",
        "host": "host matching is not supported (this server answers one host)",
        "port": "port matching is not supported",
        "scheme": "scheme matching is not supported",
        "pathParameters": "pathParameters (urlPathTemplate) is not supported by WireMock 2.35 either: use urlPathPattern",
        "urlPathTemplate": "urlPathTemplate is not supported by WireMock 2.35 either: use urlPathPattern",
    ]

    /// The exact path this pattern needs, for the index (nil: any path, or a pattern).
    var exactPath: String? {
        switch url {
        case .url(let u): return u.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init)
        case .urlPath(let p): return p
        default: return nil
        }
    }

    /// Reads a `request` object; `pointer` names it in errors.
    package static func decode(_ value: JSONValue, at pointer: String) throws(StubProblem) -> RequestPattern {
        let object = try StrictObject(value, at: pointer, what: "\"request\"")
        try object.allow(fields, unsupported: refused)
        let urlKeys = ["url", "urlPath", "urlPattern", "urlPathPattern"].filter { object[$0] != nil }
        if urlKeys.count > 1 { throw StubProblem(pointer + "/" + urlKeys[1], "give one of url, urlPath, urlPattern, urlPathPattern, not \(urlKeys.joined(separator: " and "))") }
        var url = URLMatch.any
        if let key = urlKeys.first, let text = try object.string(key) {
            switch key {
            case "url": url = .url(text)
            case "urlPath": url = .urlPath(text)
            case "urlPattern": url = .urlPattern(try StubRegex(text, at: pointer + "/urlPattern"))
            default: url = .urlPathPattern(try StubRegex(text, at: pointer + "/urlPathPattern"))
            }
        }
        let method = try object.string("method")
        if let method, method.isEmpty || !method.allSatisfy({ $0.isASCII && ($0.isLetter || $0 == "-") }) {
            throw StubProblem(pointer + "/method", "\"method\" must be an HTTP method such as GET, or ANY")
        }
        let decodeField: (String, JSONValue, String) throws(StubProblem) -> StringPattern = { _, value, at throws(StubProblem) in
            try StringPattern.decode(value, at: at)
        }
        var bodyPatterns: [StringPattern] = []
        if let body = object["bodyPatterns"] {
            guard case .array(let items) = body else { throw StubProblem(pointer + "/bodyPatterns", "\"bodyPatterns\" must be an array of matchers") }
            for (i, item) in items.enumerated() { bodyPatterns.append(try StringPattern.decode(item, at: "\(pointer)/bodyPatterns/\(i)")) }
        }
        var basicAuth: String?
        if let credentials = object["basicAuthCredentials"] {
            let c = try StrictObject(credentials, at: pointer + "/basicAuthCredentials", what: "\"basicAuthCredentials\"")
            try c.allow(["username", "password"])
            guard let user = try c.string("username"), let password = try c.string("password") else {
                throw StubProblem(pointer + "/basicAuthCredentials", "give both \"username\" and \"password\"")
            }
            basicAuth = ("Basic " + Base64.encode(Array((user + ":" + password).utf8))).lowercased()
        }
        return RequestPattern(method: method.map { $0.uppercased() == "ANY" ? nil : $0 } ?? nil, url: url,
                              headers: try object.map("headers", decodeField), query: try object.map("queryParameters", decodeField),
                              cookies: try object.map("cookies", decodeField), bodyPatterns: bodyPatterns, basicAuth: basicAuth)
    }

    /// Whether `request` matches every part of the pattern (stops at the first part that misses).
    func matches(_ request: StubRequest) -> Bool {
        var all = true
        visitParts(of: request) { matched in
            all = matched
            return matched
        }
        return all
    }

    /// Tells `visit` whether each part of the pattern matches `request`, in order: the method, the
    /// URL, the basic credentials, each header, query parameter, cookie and body pattern; stops
    /// when `visit` answers false. The one place that says what a part matching means, for
    /// `matches` and for the near misses' `distance`.
    func visitParts(of request: StubRequest, _ visit: (Bool) -> Bool) {
        guard visit(method.map { $0 == request.method } ?? true) else { return }
        let url: Bool
        switch self.url {
        case .any: url = true
        case .url(let u): url = u == request.url
        case .urlPath(let p): url = p == request.path
        case .urlPattern(let r): url = r.matchesWhole(request.url)
        case .urlPathPattern(let r): url = r.matchesWhole(request.path)
        }
        guard visit(url) else { return }
        // WireMock compares the whole header ignoring case (`equalToIgnoreCase`): `BASIC dXNlcjpwdw==` matches.
        if let basicAuth, !visit(request.headers.values("Authorization").contains(where: { $0.lowercased() == basicAuth })) { return }
        for (name, pattern) in headers where !visit(pattern.matches(values: request.headers.values(name))) { return }
        if !query.isEmpty {
            let parameters = request.queryParameters
            for (name, pattern) in query where !visit(pattern.matches(values: parameters.filter { $0.name == name }.map(\.value))) { return }
        }
        if !cookies.isEmpty {
            let jar = request.cookies
            for (name, pattern) in cookies where !visit(pattern.matches(values: jar.filter { $0.0 == name }.map(\.1))) { return }
        }
        if !bodyPatterns.isEmpty {
            let body = request.bodyText
            for pattern in bodyPatterns where !visit(pattern.matches(values: body.isEmpty && pattern.matchesMissing ? [] : [body])) { return }
        }
    }
}

/// The parts of a request a pattern looks at, from a live request or from the journal.
package struct StubRequest: Sendable {
    package let method: String
    /// Path and query, as sent.
    package let url: String
    package let headers: HTTPHeaders
    package let body: [UInt8]
    /// The path part of `url` (split once: every candidate mapping reads it).
    let path: String
    /// The query part of `url` without `?`, still encoded.
    let queryString: String

    package init(method: String, url: String, headers: HTTPHeaders, body: [UInt8]) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        if let q = url.utf8.firstIndex(of: UInt8(ascii: "?")) {
            path = String(Substring(url.utf8[..<q]))
            queryString = String(Substring(url.utf8[url.utf8.index(after: q)...]))
        } else {
            path = url
            queryString = ""
        }
    }

    init(_ request: HTTPRequest) {
        self.init(method: request.method.rawValue, url: request.target, headers: request.headers, body: request.body)
    }

    var queryParameters: Parameters { FormDecoding.parseForm(queryString) }

    var bodyText: String { String(decoding: body, as: UTF8.self) }

    /// `Cookie: a=1; b=2` as name/value pairs.
    var cookies: [(String, String)] {
        headers.values("Cookie").flatMap { line in
            line.split(separator: ";").compactMap { part -> (String, String)? in
                let pair = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard pair.count == 2 else { return nil }
                return (pair[0].trimmingASCIIWhitespace(), pair[1].trimmingASCIIWhitespace())
            }
        }
    }
}
