#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
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
        /// WireMock 3's `urlPathTemplate`: `/items/{id}`.
        case urlPathTemplate(StubPathTemplate)
    }

    let method: String?
    let url: URLMatch
    let headers: [(String, MultiValuePattern)]
    let query: [(String, MultiValuePattern)]
    /// WireMock 3's `formParameters`: an `application/x-www-form-urlencoded` body's fields.
    let form: [(String, MultiValuePattern)]
    /// WireMock 3's `pathParameters`, with `urlPathTemplate`.
    let pathParameters: [(String, StringPattern)]
    let cookies: [(String, StringPattern)]
    let bodyPatterns: [StringPattern]
    /// `multipartPatterns`: each must match the parts of a multipart body.
    let multipart: [MultipartPattern]
    /// `Authorization: Basic …` for these credentials, in lower case (compared ignoring case).
    let basicAuth: String?
    /// `scheme`, `host`, `port`: as the request's `Host` header gives them (this server speaks http only).
    let scheme: String?
    let host: StringPattern?
    let port: Int?

    static let fields = ["method", "url", "urlPath", "urlPattern", "urlPathPattern", "urlPathTemplate", "pathParameters", "queryParameters",
                         "formParameters", "headers", "cookies", "bodyPatterns", "multipartPatterns", "basicAuthCredentials", "scheme", "host", "port"]
    static let refused: [String: String] = [
        "customMatcher": "custom matchers are not supported",
    ]
    static let urlKeys = ["url", "urlPath", "urlPattern", "urlPathPattern", "urlPathTemplate"]

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
        try object.allow(fields, unsupported: refused, wireMock: .requestPattern)
        let urlKeys = RequestPattern.urlKeys.filter { object[$0] != nil }
        if urlKeys.count > 1 { throw StubProblem(pointer + "/" + urlKeys[1], "give one of \(RequestPattern.urlKeys.joined(separator: ", ")), not \(urlKeys.joined(separator: " and "))") }
        var url = URLMatch.any
        if let key = urlKeys.first, let text = try object.string(key) {
            switch key {
            case "url": url = .url(text)
            case "urlPath": url = .urlPath(text)
            case "urlPattern": url = .urlPattern(try urlRegex(text, key: key, at: pointer))
            case "urlPathTemplate": url = .urlPathTemplate(try StubPathTemplate(text, at: pointer + "/urlPathTemplate"))
            default: url = .urlPathPattern(try urlRegex(text, key: key, at: pointer))
            }
        }
        let method = try object.string("method")
        if let method, method.isEmpty || !method.allSatisfy({ $0.isASCII && ($0.isLetter || $0 == "-") }) {
            throw StubProblem(pointer + "/method", "\"method\" must be an HTTP method such as GET, or ANY")
        }
        let decodeField: (String, JSONValue, String) throws(StubProblem) -> StringPattern = { _, value, at throws(StubProblem) in
            try StringPattern.decode(value, at: at)
        }
        let decodeMulti: (String, JSONValue, String) throws(StubProblem) -> MultiValuePattern = { _, value, at throws(StubProblem) in
            try MultiValuePattern.decode(value, at: at)
        }
        var bodyPatterns: [StringPattern] = []
        if let body = object["bodyPatterns"] {
            guard case .array(let items) = body else { throw StubProblem(pointer + "/bodyPatterns", "\"bodyPatterns\" must be an array of matchers") }
            for (i, item) in items.enumerated() { bodyPatterns.append(try StringPattern.decode(item, at: "\(pointer)/bodyPatterns/\(i)", body: true)) }
        }
        var multipart: [MultipartPattern] = []
        if let patterns = object["multipartPatterns"] {
            guard case .array(let items) = patterns else { throw StubProblem(pointer + "/multipartPatterns", "\"multipartPatterns\" must be an array") }
            for (i, item) in items.enumerated() { multipart.append(try MultipartPattern.decode(item, at: "\(pointer)/multipartPatterns/\(i)")) }
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
        let pathParameters = try object.map("pathParameters", decodeField)
        if !pathParameters.isEmpty {
            guard case .urlPathTemplate(let template) = url else {
                throw StubProblem(pointer + "/pathParameters", "pathParameters need a urlPathTemplate (WireMock 3) to name them")
            }
            for (name, _) in pathParameters where !template.names.contains(name) {
                throw StubProblem(pointer + "/pathParameters/" + name, "\"\(name)\" is not a variable of the path template \"\(template.source)\"")
            }
        }
        let scheme = try object.string("scheme")
        if let scheme, scheme != "http" && scheme != "https" { throw StubProblem(pointer + "/scheme", "\"scheme\" must be http or https") }
        return RequestPattern(method: method.map { $0.uppercased() == "ANY" ? nil : $0 } ?? nil, url: url,
                              headers: try object.map("headers", decodeMulti), query: try object.map("queryParameters", decodeMulti),
                              form: try object.map("formParameters", decodeMulti), pathParameters: pathParameters,
                              cookies: try object.map("cookies", decodeField), bodyPatterns: bodyPatterns, multipart: multipart,
                              basicAuth: basicAuth, scheme: scheme, host: try object["host"].map { v throws(StubProblem) in try StringPattern.decode(v, at: pointer + "/host") },
                              port: try object.int("port", in: 1...65535))
    }

    /// A URL regular expression; WireMock compiles it as it builds the whole request pattern, so
    /// its error points at the request, not at the field.
    private static func urlRegex(_ text: String, key: String, at pointer: String) throws(StubProblem) -> StubRegex {
        do throws(StubProblem) {
            return try StubRegex(text, at: pointer + "/" + key)
        } catch {
            throw error.pointedByWireMock(at: pointer)
        }
    }

    /// Whether `request` matches every part of the pattern (stops at the first part that misses);
    /// `now`: the mock's clock, for the date matchers.
    func matches(_ request: StubRequest, now: Date) -> Bool {
        var all = true
        visitParts(of: request, now: now) { matched in
            all = matched
            return matched
        }
        return all
    }

    /// Tells `visit` whether each part of the pattern matches `request`, in order: the method, the
    /// URL, scheme, host and port, the basic credentials, each path parameter, header, query
    /// parameter, form parameter, cookie, body pattern and multipart pattern; stops when `visit` answers false. The
    /// one place that says what a part matching means, for `matches` and for the near misses' `distance`.
    func visitParts(of request: StubRequest, now: Date, _ visit: (Bool) -> Bool) {
        guard visit(method.map { $0 == request.method } ?? true) else { return }
        let url: Bool
        var pathValues: [String: String] = [:]
        switch self.url {
        case .any: url = true
        case .url(let u): url = u == request.url
        case .urlPath(let p): url = p == request.path
        case .urlPattern(let r): url = r.matchesWhole(request.url)
        case .urlPathPattern(let r): url = r.matchesWhole(request.path)
        case .urlPathTemplate(let t):
            if let values = t.parameters(of: request.path) { pathValues = values; url = true } else { url = false }
        }
        guard visit(url) else { return }
        if let scheme, !visit(scheme == "http") { return }
        if host != nil || port != nil {
            let authority = request.authority
            if let host, !visit(host.matches(authority.host, now: now)) { return }
            if let port, !visit(port == authority.port) { return }
        }
        // WireMock compares the whole header ignoring case (`equalToIgnoreCase`): `BASIC dXNlcjpwdw==` matches.
        if let basicAuth, !visit(request.headers.values("Authorization").contains(where: { $0.lowercased() == basicAuth })) { return }
        for (name, pattern) in pathParameters where !visit(pattern.matches(pathValues[name], now: now)) { return }
        for (name, pattern) in headers where !visit(pattern.matches(values: request.headers.values(name), now: now)) { return }
        if !query.isEmpty {
            let parameters = request.queryParameters
            for (name, pattern) in query where !visit(pattern.matches(values: parameters.filter { $0.name == name }.map(\.value), now: now)) { return }
        }
        if !form.isEmpty {
            let fields = request.formParameters
            for (name, pattern) in form where !visit(pattern.matches(values: fields.filter { $0.name == name }.map(\.value), now: now)) { return }
        }
        if !cookies.isEmpty {
            let jar = request.cookies
            for (name, pattern) in cookies where !visit(pattern.matches(values: jar.filter { $0.0 == name }.map(\.1), now: now)) { return }
        }
        if !bodyPatterns.isEmpty {
            let text = request.bodyText
            for pattern in bodyPatterns where !visit(pattern.matches(body: request.body, text: text, now: now)) { return }
        }
        if !multipart.isEmpty {
            let parts = StubMultipart.parts(of: request)
            for pattern in multipart where !visit(parts.map { pattern.matches($0, now: now) } ?? false) { return }
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

    /// The parser split the target already: its path and query are taken as they are.
    init(_ request: HTTPRequest) {
        method = request.method.rawValue
        url = request.target
        headers = request.headers
        body = request.body
        path = request.path
        queryString = request.query
    }

    var queryParameters: Parameters { FormDecoding.parseForm(queryString) }

    /// The body's fields when it is `application/x-www-form-urlencoded` (none otherwise), as WireMock 3 reads them.
    var formParameters: Parameters {
        guard headers.values("Content-Type").first?.lowercased().contains("application/x-www-form-urlencoded") == true else { return Parameters() }
        return FormDecoding.parseForm(bodyText)
    }

    /// The host and port of the `Host` header (port 80 when it names none, as Jetty reads it).
    var authority: (host: String?, port: Int) {
        guard let value = headers.values("Host").first else { return (nil, 80) }
        var host = Substring(value), port = 80
        if let colon = value.lastIndex(of: ":"), !value[colon...].contains("]"), let p = Int(value[value.index(after: colon)...]) {
            host = value[..<colon]
            port = p
        }
        return (String(host), port)
    }

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
