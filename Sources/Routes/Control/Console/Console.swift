import HTTPServer
import EmulationKit

/// The web console at `/__mock/`: one page, its stylesheet and its script, all compiled into
/// the binary (no CDN, no build step), under a Content-Security-Policy of their own origin.
package enum Console {
    static let pagePath = "/__mock/"
    package static let stylePath = "/__mock/console.css"
    package static let scriptPath = "/__mock/console.js"

    /// The page: outside the admin group's guard, since its `?token=` login must come first (it
    /// sets the cookie the guard then accepts); the page itself is behind the guard.
    package static func page(guard adminGuard: AdminGuard, systems: [any EmulatedSystem]) -> HTTPHandler {
        let administered = systems.compactMap { system in (system as? any AccountAdministration).map { (system.name, type(of: $0).accountFormFields) } }
        let page = Array(ConsolePage.html(systems: systems.map { ($0.name, type(of: $0).title) }, accountForms: administered).utf8)
        let guardedPage = adminGuard.wrap { request, _ in
            asset(page, type: "text/html; charset=utf-8", policy: contentSecurityPolicy(host: request.headers["Host"]))
        }
        return { request, context in
            if let token = request.queryParameters["token"],
               let login = adminGuard.consoleLogin(request, context, token: token, next: pagePath) { return login }
            return guardedPage(request, &context)
        }
    }

    /// The stylesheet (inside the admin group, whose guard covers it).
    package static var style: HTTPHandler {
        let style = Array(ConsoleStyle.css.utf8)
        return { _, _ in asset(style, type: "text/css; charset=utf-8") }
    }

    /// The script (inside the admin group, whose guard covers it).
    package static var script: HTTPHandler {
        let script = Array(ConsoleScript.js.utf8)
        return { _, _ in asset(script, type: "text/javascript; charset=utf-8") }
    }

    private static func asset(_ bytes: [UInt8], type: String, policy: String? = nil) -> HTTPResponse {
        var response = HTTPResponse(status: .ok, body: bytes)
        response.headers.set("Content-Type", type)
        // The page changes with the binary; a stale cached script would talk to a newer server.
        response.headers.set("Cache-Control", "no-store")
        response.headers.set("X-Content-Type-Options", "nosniff")
        if let policy {
            response.headers.set("Content-Security-Policy", policy)
            response.headers.set("X-Frame-Options", "DENY")
            response.headers.set("Referrer-Policy", "no-referrer")
        }
        return response
    }

    /// Only this origin: no inline script, no third-party anything, not framable. The event
    /// stream is named explicitly, since older browsers do not let `'self'` cover `ws:`.
    static func contentSecurityPolicy(host: String?) -> String {
        var connect = "'self'"
        if let host, HTTPRequest.isValidHost(host), !host.isEmpty { connect += " ws://\(host)" }
        return "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
            + "connect-src \(connect); base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    }

    /// The answer at the server's root: a browser (preferring HTML) is sent to the console;
    /// every other client gets the 404 it always had there.
    package static func rootAnswer(_ request: HTTPRequest) -> HTTPResponse {
        guard prefersHTML(request.headers["Accept"]) else {
            return RouteGroup.vaporShape(HTTPError(.notFound, "Not Found: \(request.path)"))
        }
        var response = HTTPResponse.text(HTTPStatus(code: 302, reasonPhrase: "Found"), "The mock's web console is at \(pagePath)\n")
        response.headers.set("Location", pagePath)
        response.headers.add("Vary", "Accept")
        // No system: `/` belongs to none (PathOwners), so journal, faults and logs say null.
        return response
    }

    /// Whether an `Accept` value names `text/html` at least as highly as JSON (a browser
    /// navigating; `*/*` alone, as curl and HTTP libraries send, is not a browser).
    static func prefersHTML(_ accept: String?) -> Bool {
        guard let accept else { return false }
        var html = 0.0, json = 0.0
        for range in accept.split(separator: ",") {
            let parts = range.split(separator: ";")
            guard let type = parts.first?.trimmingASCIISpaces().lowercased() else { continue }
            var q = 1.0
            for parameter in parts.dropFirst() {
                let pair = parameter.trimmingASCIISpaces()
                if pair.lowercased().hasPrefix("q="), let value = Double(pair.dropFirst(2)) { q = value }
            }
            if type == "text/html" || type == "application/xhtml+xml" { html = max(html, q) }
            if type == "application/json" { json = max(json, q) }
        }
        return html > 0 && html >= json
    }
}
