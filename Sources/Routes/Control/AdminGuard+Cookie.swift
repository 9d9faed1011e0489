import HTTPServer

/// The console reached from a phone or another machine (docs/endpoints.md, "The mock's own paths"): a browser cannot send the
/// `X-Mock-Admin-Token` header, so opening `/__mock/?token=<token>` once sets an `HttpOnly`,
/// `SameSite=Strict` cookie that stands for it.
extension AdminGuard {
    /// The cookie's name; its value is a digest of the token, so the secret itself never sits in
    /// the browser's cookie store.
    public static let cookieName = "mock_admin"

    /// The cookie value the token stands for (nil without `--admin-token`).
    package static func cookieValue(for token: String?) -> String? {
        guard let token else { return nil }
        return SHA1.hash(Array("mock-server admin cookie\n\(token)".utf8)).map { byte in
            let hex = Array("0123456789abcdef".utf8)
            return String(decoding: [hex[Int(byte >> 4)], hex[Int(byte & 15)]], as: UTF8.self)
        }.joined()
    }

    /// Whether the request carries the cookie of this server's token.
    package func hasTokenCookie(_ request: HTTPRequest) -> Bool {
        guard let cookieValue else { return false }
        for header in request.headers.values("Cookie") {
            for pair in header.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                if parts.count == 2, parts[0].trimmingASCIISpaces() == AdminGuard.cookieName,
                   parts[1].trimmingASCIISpaces() == cookieValue { return true }
            }
        }
        return false
    }

    /// The answer to `GET /__mock/?token=…`: the right token sets the cookie and sends the browser
    /// on to `/__mock/` (so the secret leaves the address bar and the history); a wrong one is 403.
    /// Nil when the server has no token, so the console is guarded as usual.
    public func consoleLogin(_ request: HTTPRequest, token offered: String, next location: String) -> HTTPResponse? {
        guard let adminToken else { return nil }
        guard offered == adminToken else {
            return AdminGuard.forbidden("wrong token in the console address (?token= must be the --admin-token value)")
        }
        var response = HTTPResponse.text(HTTPStatus(code: 303, reasonPhrase: "See Other"), "Signed in; the console is at \(location)\n")
        response.headers.set("Location", location)
        response.headers.set("Set-Cookie", "\(AdminGuard.cookieName)=\(cookieValue ?? ""); Path=/__mock; HttpOnly; SameSite=Strict")
        response.headers.set("Cache-Control", "no-store")
        response.headers.set("Referrer-Policy", "no-referrer")
        response.system = "admin"
        return response
    }
}
