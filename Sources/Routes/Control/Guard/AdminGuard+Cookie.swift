import HTTPServer

/// The console reached from a phone or another machine (docs/endpoints.md, "The mock's own paths"): a browser cannot send the
/// `X-Mock-Admin-Token` header, so opening `/__mock/?token=<token>` once sets an `HttpOnly`,
/// `SameSite=Strict` cookie that stands for it.
///
/// The cookie is `<expiry>.<mac>`: an HMAC-SHA256, under a secret drawn once per process, of the
/// token, the `Host` it was issued for and its expiry. So it holds no secret, cannot be made
/// without this process's secret, stops working after `cookieLifetime` or a restart, and is
/// refused when it comes back addressed to another host.
extension AdminGuard {
    /// The cookie's name.
    static let cookieName = "mock_admin"
    /// Seconds a console sign-in lasts.
    package static let cookieLifetime = 12 * 3600

    /// Drawn once per process: a cookie from an earlier run (or another process) is worthless.
    private static let cookieSecret: [UInt8] = {
        var generator = SystemRandomNumberGenerator()
        return (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }()

    /// The cookie value for a sign-in on `host` valid until `expires` (seconds since 1970); nil
    /// without `--admin-token`. Public so that tests can make expired or foreign-host cookies.
    package func cookieValue(host: String, expires: Int) -> String? {
        guard let adminToken else { return nil }
        let message = Array("mock-server admin cookie\n\(adminToken)\n\(host.lowercased())\n\(expires)".utf8)
        let mac = HMACSHA256.authenticate(message, key: AdminGuard.cookieSecret)
        let hex = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        for byte in mac { text.append(hex[Int(byte >> 4)]); text.append(hex[Int(byte & 15)]) }
        return "\(expires).\(String(decoding: text, as: UTF8.self))"
    }

    /// Whether the request carries a live cookie of this server's token, issued for `host`.
    func hasTokenCookie(_ request: HTTPRequest, host: String?) -> Bool {
        guard adminToken != nil, let host else { return false }
        let now = Int(SystemTime.wallSeconds())
        for header in request.headers.values("Cookie") {
            for pair in header.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                guard parts.count == 2, parts[0].trimmingASCIISpaces() == AdminGuard.cookieName else { continue }
                let value = parts[1].trimmingASCIISpaces()
                guard let dot = value.firstIndex(of: "."), let expires = Int(value[..<dot]), expires > now,
                      let expected = cookieValue(host: host, expires: expires) else { continue }
                if HMACSHA256.constantTimeEquals(value.utf8, expected.utf8) { return true }
            }
        }
        return false
    }

    /// The answer to `GET /__mock/?token=…`: the right token sets the cookie and sends the browser
    /// on to `/__mock/` (so the secret leaves the address bar and the history); a wrong one is 403
    /// (and counts as a wrong token: logged, and throttled). Nil when the server has no token, so
    /// the console is guarded as usual.
    func consoleLogin(_ request: HTTPRequest, _ context: RequestContext, token offered: String, next location: String) -> HTTPResponse? {
        guard let adminToken else { return nil }
        if let wait = failures.retryAfter(peer: context.remoteAddress) { return AdminGuard.tooManyFailures(retryAfter: wait) }
        guard HMACSHA256.constantTimeEquals(offered.utf8, adminToken.utf8) else {
            failures.record(peer: context.remoteAddress, what: "wrong token in the console address")
            return AdminGuard.forbidden("wrong token in the console address (?token= must be the --admin-token value)")
        }
        guard let host = request.headers["Host"],
              let cookie = cookieValue(host: host, expires: Int(SystemTime.wallSeconds()) + AdminGuard.cookieLifetime) else {
            return AdminGuard.forbidden("the console sign-in needs a Host header (the cookie is issued for that host)")
        }
        var response = HTTPResponse.text(HTTPStatus(code: 303, reasonPhrase: "See Other"), "Signed in; the console is at \(location)\n")
        response.headers.set("Location", location)
        response.headers.set("Set-Cookie", "\(AdminGuard.cookieName)=\(cookie); Path=/__mock; Max-Age=\(AdminGuard.cookieLifetime); HttpOnly; SameSite=Strict")
        response.headers.set("Cache-Control", "no-store")
        response.headers.set("Referrer-Policy", "no-referrer")
        return response
    }
}
