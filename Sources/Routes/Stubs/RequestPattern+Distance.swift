/// How far a request is from matching a pattern, for WireMock's near misses.
extension RequestPattern {
    /// The fraction of this pattern's parts the request does not match, 0 (a match) to 1: the
    /// method, the URL, each header, query parameter and cookie, each body pattern and the basic
    /// credentials count one each. This is this server's own measure: WireMock weighs its parts
    /// and scores a URL by edit distance, so the two order near misses alike in the usual cases
    /// (the closest mapping first) but their numbers differ.
    func distance(_ request: StubRequest) -> Double {
        var parts = 0, misses = 0
        func part(_ matched: Bool) {
            parts += 1
            if !matched { misses += 1 }
        }
        part(method.map { $0 == request.method } ?? true)
        switch url {
        case .any: part(true)
        case .url(let u): part(u == request.url)
        case .urlPath(let p): part(p == request.path)
        case .urlPattern(let r): part(r.matchesWhole(request.url))
        case .urlPathPattern(let r): part(r.matchesWhole(request.path))
        }
        if let basicAuth { part(request.headers.values("Authorization").contains(basicAuth)) }
        for (name, pattern) in headers { part(pattern.matches(values: request.headers.values(name))) }
        if !query.isEmpty {
            let parameters = request.queryParameters
            for (name, pattern) in query { part(pattern.matches(values: parameters.filter { $0.name == name }.map(\.value))) }
        }
        if !cookies.isEmpty {
            let jar = request.cookies
            for (name, pattern) in cookies { part(pattern.matches(values: jar.filter { $0.0 == name }.map(\.1))) }
        }
        if !bodyPatterns.isEmpty {
            let body = request.bodyText
            for pattern in bodyPatterns { part(pattern.matches(values: body.isEmpty && pattern.matchesMissing ? [] : [body])) }
        }
        return Double(misses) / Double(parts)
    }
}
