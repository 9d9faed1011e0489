import HTTPServer

/// `--proxy-all URL` (WireMock's flag): every request no stub and no system route answers goes to
/// the upstream; the admin paths (`/__admin`, `/__mock`) never do.
package struct ProxyAll: Sendable {
    package let upstream: Upstream
    package let preserveHost: Bool
    /// Hears every exchange (the stub store's recorder).
    package var recorder: StubRecorder?

    package init(upstream: Upstream, preserveHost: Bool, recorder: StubRecorder? = nil) {
        self.upstream = upstream
        self.preserveHost = preserveHost
        self.recorder = recorder
    }

    /// The upstream's (held) answer, or nil for an admin path (which keeps its 404).
    package func answer(_ request: HTTPRequest, _ context: inout RequestContext) -> HTTPResponse? {
        if ProxyAll.isAdminPath(request.path) { return nil }
        var extras = ProxyForwarding.Extras()
        extras.preserveHost = preserveHost
        extras.recorder = recorder
        return ProxyForwarding.forward(request, to: upstream, extras: extras, context: &context)
    }

    static func isAdminPath(_ path: String) -> Bool {
        for prefix in ["/__admin", "/__mock"] where path.hasPrefix(prefix) {
            let rest = path.utf8.dropFirst(prefix.utf8.count)
            if rest.isEmpty || rest.first == UInt8(ascii: "/") { return true }
        }
        return false
    }
}
