import HTTPServer

/// A mapping's proxying (WireMock's `proxyBaseUrl`, `additionalProxyRequestHeaders`,
/// `proxyUrlPrefixToRemove`): the request goes to the upstream, and its answer is the stub's.
struct StubProxy: Sendable {
    let upstream: Upstream
    /// Fields set on the forwarded request, replacing the client's of the same name.
    let additionalHeaders: [(String, String)]
    /// Taken off the front of the request's URL before the base URL's path goes on.
    let prefixToRemove: String?

    /// Reads the proxy fields of a `response` object; nil when it has no `proxyBaseUrl`.
    /// `templated`: the response has the `response-template` transformer, under which WireMock
    /// renders `proxyBaseUrl` and `additionalProxyRequestHeaders`; this server does not, so a
    /// template in them is refused rather than sent as written.
    static func decode(_ object: StrictObject, at pointer: String, templated: Bool = false) throws(StubProblem) -> StubProxy? {
        guard let base = try object.string("proxyBaseUrl") else {
            for key in ["additionalProxyRequestHeaders", "proxyUrlPrefixToRemove"] where object[key] != nil {
                throw StubProblem(pointer + "/" + key, "\"\(key)\" needs \"proxyBaseUrl\"")
            }
            return nil
        }
        if templated && base.contains("{{") {
            throw StubProblem(pointer + "/proxyBaseUrl", "a templated proxyBaseUrl is not rendered here (WireMock renders it): give the upstream's URL")
        }
        let upstream: Upstream
        do throws(Upstream.Invalid) {
            upstream = try Upstream(baseURL: base.trimmingASCIISpaces().description)
        } catch {
            throw StubProblem(pointer + "/proxyBaseUrl", error.reason)
        }
        var headers: [(String, String)] = []
        for (name, value) in try object.map("additionalProxyRequestHeaders", { name, value, at throws(StubProblem) -> String in
            if !HTTPHeaderName.isValid(name) { throw StubProblem(at, "\"\(name)\" is not a valid header name") }
            guard case .string(let text) = value else { throw StubProblem(at, "a header value must be a string") }
            if StubFraming.breaksLine(text) { throw StubProblem(at, "a header value may not contain CR, LF or NUL") }
            if templated && text.contains("{{") {
                throw StubProblem(at, "a template in additionalProxyRequestHeaders is not rendered here (WireMock renders it): refused rather than sent as written")
            }
            return text
        }) {
            headers.append((name, value))
        }
        let prefix = try object.string("proxyUrlPrefixToRemove")
        return StubProxy(upstream: upstream, additionalHeaders: headers, prefixToRemove: prefix)
    }
}
