import HTTPServer

/// The one check every `/__mock/*` endpoint (HTTP and WebSocket) goes through: who may use the
/// admin surface, and from which page.
///
/// A browser open on the developer's machine is a loopback client, so loopback alone is not
/// enough: a page from elsewhere must neither reach the admin paths under another name (DNS
/// rebinding: `Host` must be a loopback name or the configured host), nor read them
/// cross-origin (`Origin` must be this server), nor change state: a browser's cross-site write
/// always shows itself (an `Origin` that is not this server's, `Origin: null`, and in current
/// browsers `Sec-Fetch-Site: cross-site` or `same-site`), while WireMock's clients, curl and a
/// test's own calls send none of these, whatever their `Content-Type`.
package struct AdminGuard: Sendable {
    /// `X-Mock-Admin-Token: <token>` opens the admin paths to other machines (`--admin-token`).
    static let tokenHeader = "X-Mock-Admin-Token"
    /// `/__mock/*` and `prefix/*` (the stubs' admin API, `/__admin`, as the composition root
    /// says: `StubControls.adminPrefix`) answer as `admin`, errors in Vapor's shape like the
    /// transport's own. No CORS: they are read by their own console only, which is same-origin.
    package static func routeGroup(alsoOwning prefix: String?) -> RouteGroup {
        RouteGroup(system: "admin", prefixes: ["/__mock"] + (prefix.map { [$0] } ?? []), allowsCrossOrigin: false,
                   staticPathsAreExclusive: true, role: .admin)
    }

    package let adminToken: String?
    /// Host names (lowercased, no port) accepted besides the loopback names: the configured one.
    package let extraHosts: Set<String>
    /// Wrong tokens per peer (logged, and throttled past a limit).
    package let failures: AdminFailures

    /// `--admin-token` must be at least this long: shorter ones are guessed too easily.
    package static let minimumTokenLength = 16

    package init(adminToken: String?, extraHosts: [String] = [], logger: Logger = .silent) {
        self.adminToken = (adminToken?.isEmpty ?? true) ? nil : adminToken
        self.extraHosts = Set(extraHosts.map { HostField.name($0.lowercased()) }.filter { !$0.isEmpty })
        failures = AdminFailures(logger: logger)
    }

    /// Wraps an admin handler: refused requests never reach it.
    package func wrap(_ handler: @escaping HTTPHandler) -> HTTPHandler {
        { [self] request, context in
            refusal(for: request, context) ?? handler(request, &context)
        }
    }

    /// Whether a WebSocket handshake on an admin path may go on (a refused one is answered by
    /// the path's HTTP route, which gives the reason).
    package func admits(_ request: HTTPRequest, _ context: RequestContext) -> Bool { refusal(for: request, context) == nil }

    /// The 403 (or 429) for a request the admin surface refuses, or nil when it may go on.
    package func refusal(for request: HTTPRequest, _ context: RequestContext) -> HTTPResponse? {
        let offered = request.headers[AdminGuard.tokenHeader]
        if let adminToken, let offered {
            if let wait = failures.retryAfter(peer: context.remoteAddress) { return AdminGuard.tooManyFailures(retryAfter: wait) }
            // A caller that knows the secret is not a hijacked browser page.
            if HMACSHA256.constantTimeEquals(offered.utf8, adminToken.utf8) { return nil }
            failures.record(peer: context.remoteAddress, what: "wrong \(AdminGuard.tokenHeader)")
            return AdminGuard.forbidden("wrong \(AdminGuard.tokenHeader)")
        }
        // (The parser puts an absolute-form target's authority in `Host`, RFC 9112 §3.2.2.)
        let host = request.headers["Host"]
        // The console's cookie (set by /__mock/?token=) stands for the header from another machine.
        // A browser sends it only to this host, and only from pages of this site (SameSite=Strict),
        // and it is signed for the host it was issued to, so the loopback and Host checks have
        // nothing left to stop; the page checks below still apply, since another port of the
        // same host is the same site.
        let cookie = hasTokenCookie(request, host: host)
        guard cookie || context.isFromLoopback else {
            return AdminGuard.forbidden(adminToken == nil
                ? "admin routes answer loopback clients only (start with --admin-token to open them)"
                : "admin routes need the \(AdminGuard.tokenHeader) header (a browser: open /__mock/?token=<token> once)")
        }
        if !cookie, let host, let problem = hostProblem(host, localPort: context.localPort) {
            return AdminGuard.forbidden(problem)
        }
        // Every Origin header (`null` included): a second one must not slip past the first one's check.
        for origin in request.headers.values("Origin") where !isSameOrigin(origin, host: host) {
            return AdminGuard.forbidden("cross-origin admin request from \(origin) refused: the admin routes serve only their own console (/__mock/)")
        }
        if !AdminGuard.isSafe(request.method) {
            for site in request.headers.values("Sec-Fetch-Site") where AdminGuard.crossSiteFetches.contains(site.trimmingASCIISpaces().lowercased()) {
                return AdminGuard.forbidden("a browser's \(site) write to the admin routes refused (Sec-Fetch-Site: \(site)): only this server's console may change state from a browser")
            }
        }
        return nil
    }

    /// `Sec-Fetch-Site` values a browser sends on a request another site's page started (Fetch
    /// Metadata: `same-origin` and `none` are this server's console and the address bar).
    private static let crossSiteFetches: Set<String> = ["cross-site", "same-site"]

    /// The 429 for a peer that sent too many wrong tokens.
    static func tooManyFailures(retryAfter seconds: Int) -> HTTPResponse {
        var response = HTTPResponse.json(HTTPStatus(code: 429, reasonPhrase: "Too Many Requests"),
                                         ["error": .string("too many wrong admin tokens from this address; try again in \(seconds) s")])
            .hinted("More than \(AdminFailures.limit) wrong admin tokens in \(AdminFailures.windowSeconds) s from this address: token attempts are refused until Retry-After has passed.")
        response.headers.set("Retry-After", "\(seconds)")
        return response
    }

    package static func forbidden(_ reason: String) -> HTTPResponse {
        // The reason is the §0 hint too (ASCII, one sentence), so it reaches the log and journal.
        // Host and Origin come from the client: the hint keeps printable ASCII only.
        let hint = String(String.UnicodeScalarView(reason.unicodeScalars.map { (0x20...0x7E).contains($0.value) ? $0 : "?" }))
        return HTTPResponse.json(.forbidden, ["error": .string(reason)]).hinted(hint)
    }

    static func isSafe(_ method: HTTPMethod) -> Bool {
        method == .get || method == .head || method == .options
    }

    func isAcceptedHost(_ value: String) -> Bool {
        let name = HostField.name(value.lowercased())
        return AdminGuard.isLoopbackName(name) || extraHosts.contains(name)
    }

    /// Why a request addressed to `value` (a `Host` or an absolute-form authority) is refused,
    /// or nil: the name must be a loopback one or the configured host, and the port the one the
    /// request came in on (no port means 80), so a page cannot reach this server under another name.
    func hostProblem(_ value: String, localPort: Int) -> String? {
        guard isAcceptedHost(value) else {
            return "admin routes answer requests addressed to localhost, 127.0.0.1 or [::1], not \(value): a web page may be reaching this server through DNS rebinding"
        }
        guard localPort != 0 else { return nil }
        let port = HostField.port(value)
        guard port == localPort else {
            return "admin routes answer requests addressed to this server's port \(localPort), not \(port.map(String.init) ?? "none (80)") (Host: \(value))"
        }
        return nil
    }

    /// `localhost` (and its subdomains, RFC 6761), `127.0.0.0/8`, `::1` and `::ffff:127.x`.
    static func isLoopbackName(_ name: String) -> Bool {
        if name == "localhost" || name.hasSuffix(".localhost") || name == "::1" { return true }
        let v4 = name.hasPrefix("::ffff:") ? String(name.dropFirst(7)) : name
        let parts = v4.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { part in
            !part.isEmpty && part.count <= 3 && part.allSatisfy(\.isASCIIDigit) && (Int(part) ?? 256) <= 255
        }
    }

    /// `Origin: http://127.0.0.1:8080` against `Host: 127.0.0.1:8080` (the console's own page).
    private func isSameOrigin(_ origin: String, host: String?) -> Bool {
        guard let host else { return false }
        let lower = origin.lowercased()
        for scheme in ["http://", "https://"] where lower.hasPrefix(scheme) {
            return String(lower.dropFirst(scheme.count)) == host.lowercased()
        }
        return false
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
