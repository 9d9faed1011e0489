import HTTPServer

/// The one check every `/__mock/*` endpoint (HTTP and WebSocket) goes through: who may use the
/// admin surface, and from which page.
///
/// A browser open on the developer's machine is a loopback client, so loopback alone is not
/// enough: a page from elsewhere must neither reach the admin paths under another name (DNS
/// rebinding: `Host` must be a loopback name or the configured host), nor read them
/// cross-origin (`Origin` must be this server), nor change state with a simple request (a
/// cross-site form or `no-cors` fetch cannot send a JSON `Content-Type` or a custom header).
public struct AdminGuard: Sendable {
    /// `X-Mock-Admin-Token: <token>` opens the admin paths to other machines (`--admin-token`).
    public static let tokenHeader = "X-Mock-Admin-Token"
    /// `X-Mock-Admin: 1` marks a state-changing admin request as not coming from a cross-site form.
    public static let markerHeader = "X-Mock-Admin"
    /// `/__mock/*` answers as `admin`, errors in Vapor's shape like the transport's own.
    package static let routeGroup = RouteGroup(system: "admin", prefixes: ["/__mock"])

    package let adminToken: String?
    /// The `mock_admin` cookie value that stands for the token (see AdminGuard+Cookie.swift).
    package let cookieValue: String?
    /// Host names (lowercased, no port) accepted besides the loopback names: the configured one.
    package let extraHosts: Set<String>

    public init(adminToken: String?, extraHosts: [String] = []) {
        self.adminToken = (adminToken?.isEmpty ?? true) ? nil : adminToken
        cookieValue = AdminGuard.cookieValue(for: self.adminToken)
        self.extraHosts = Set(extraHosts.map { AdminGuard.hostName($0.lowercased()) }.filter { !$0.isEmpty })
    }

    /// Wraps an admin handler: refused requests never reach it; every answer is the admin system's.
    public func wrap(_ handler: @escaping HTTPHandler) -> HTTPHandler {
        { [self] request in
            var response = refusal(for: request) ?? handler(request)
            response.system = "admin"
            return response
        }
    }

    /// Whether a WebSocket handshake on an admin path may go on (a refused one is answered by
    /// the path's HTTP route, which gives the reason).
    public func admits(_ request: HTTPRequest) -> Bool { refusal(for: request) == nil }

    /// The 403 for a request the admin surface refuses, or nil when it may go on.
    public func refusal(for request: HTTPRequest) -> HTTPResponse? {
        let offered = request.headers[AdminGuard.tokenHeader]
        if let adminToken, offered == adminToken {
            // A caller that knows the secret is not a hijacked browser page.
            return nil
        }
        if offered != nil && adminToken != nil {
            return AdminGuard.forbidden("wrong \(AdminGuard.tokenHeader)")
        }
        // The console's cookie (set by /__mock/?token=) stands for the header from another machine.
        // A browser sends it only to this host, and only from pages of this site (SameSite=Strict),
        // so the loopback and Host checks have nothing left to stop; the page checks below still
        // apply, since another port of the same host is the same site.
        let cookie = hasTokenCookie(request)
        guard cookie || request.isFromLoopback else {
            return AdminGuard.forbidden(adminToken == nil
                ? "admin routes answer loopback clients only (start with --admin-token to open them)"
                : "admin routes need the \(AdminGuard.tokenHeader) header (a browser: open /__mock/?token=<token> once)")
        }
        if !cookie, let host = request.headers["Host"], !isAcceptedHost(host) {
            return AdminGuard.forbidden("admin routes answer requests addressed to localhost, 127.0.0.1 or [::1], not \(host): a web page may be reaching this server through DNS rebinding")
        }
        if let origin = request.headers["Origin"], !isSameOrigin(origin, host: request.headers["Host"]) {
            return AdminGuard.forbidden("cross-origin admin request from \(origin) refused: the admin routes serve only their own console (/__mock/)")
        }
        if !AdminGuard.isSafe(request.method) && !isNonSimple(request) {
            return AdminGuard.forbidden("state-changing admin requests need Content-Type: application/json or an \(AdminGuard.markerHeader): 1 header (a cross-site form cannot send either)")
        }
        return nil
    }

    package static func forbidden(_ reason: String) -> HTTPResponse {
        // The reason is the §0 hint too (ASCII, one sentence), so it reaches the log and journal.
        // Host and Origin come from the client: the hint keeps printable ASCII only.
        let hint = String(String.UnicodeScalarView(reason.unicodeScalars.map { (0x20...0x7E).contains($0.value) ? $0 : "?" }))
        var response = HTTPResponse.json(.forbidden, ["error": .string(reason)]).hinted(hint)
        response.system = "admin"
        return response
    }

    package static func isSafe(_ method: HTTPMethod) -> Bool {
        method == .get || method == .head || method == .options
    }

    /// A request a browser sends cross-site only after a CORS preflight (which admin paths fail).
    private func isNonSimple(_ request: HTTPRequest) -> Bool {
        if request.headers.contains(AdminGuard.markerHeader) || request.headers.contains(AdminGuard.tokenHeader) { return true }
        guard let type = request.headers["Content-Type"] else { return false }
        let media = type.split(separator: ";", maxSplits: 1).first.map { $0.trimmingASCIISpaces().lowercased() } ?? ""
        return media == "application/json" || (media.hasPrefix("application/") && media.hasSuffix("+json"))
    }

    package func isAcceptedHost(_ value: String) -> Bool {
        let name = AdminGuard.hostName(value.lowercased())
        return AdminGuard.isLoopbackName(name) || extraHosts.contains(name)
    }

    /// `localhost` (and its subdomains, RFC 6761), `127.0.0.0/8`, `::1` and `::ffff:127.x`.
    package static func isLoopbackName(_ name: String) -> Bool {
        if name == "localhost" || name.hasSuffix(".localhost") || name == "::1" { return true }
        let v4 = name.hasPrefix("::ffff:") ? String(name.dropFirst(7)) : name
        let parts = v4.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { part in
            !part.isEmpty && part.count <= 3 && part.allSatisfy(\.isASCIIDigit) && (Int(part) ?? 256) <= 255
        }
    }

    /// The host of a `Host` value without its port and IPv6 brackets: `[::1]:8080` → `::1`.
    package static func hostName(_ value: String) -> String {
        let trimmed = String(value.trimmingASCIISpaces())
        if trimmed.hasPrefix("[") {
            guard let close = trimmed.firstIndex(of: "]") else { return trimmed }
            return String(trimmed[trimmed.index(after: trimmed.startIndex)..<close])
        }
        if let colon = trimmed.firstIndex(of: ":") { return String(trimmed[..<colon]) }
        return trimmed
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
