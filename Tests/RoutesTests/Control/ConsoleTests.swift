import Foundation
import HTTPServer
import Routes
import MockTestSupport
import TestSupport
import XCTest
import EmulationKit

/// The web console's routes: the page and its assets, the browser redirect at `/`, and the
/// per-system account listing it reads (the page itself is driven in Chromium by
/// scripts/console-test.sh).
final class ConsoleTests: XCTestCase {
    func testThePageAndItsAssetsAreServedFromTheBinaryUnderAStrictPolicy() throws {
        let server = try TestServer()
        for path in ["/__mock/", "/__mock"] {
            let page = try server.request("GET", path)
            XCTAssertEqual(page.status, 200, path)
            XCTAssertEqual(page.header("Content-Type"), "text/html; charset=utf-8")
            XCTAssertTrue(page.text.contains("<meta charset=\"utf-8\">"))
            XCTAssertTrue(page.text.contains("src=\"/__mock/console.js\""))
            let policy = try XCTUnwrap(page.header("Content-Security-Policy"))
            XCTAssertTrue(policy.contains("default-src 'none'"), policy)
            XCTAssertTrue(policy.contains("script-src 'self';"), policy)
            XCTAssertTrue(policy.contains("connect-src 'self' ws://127.0.0.1:\(server.port);"), policy)
            XCTAssertFalse(page.text.contains("<script>"), "inline script would need 'unsafe-inline'")
            XCTAssertFalse(page.text.contains("http://") || page.text.contains("https://"), "nothing from another origin")
        }
        let script = try server.request("GET", "/__mock/console.js")
        XCTAssertEqual(script.header("Content-Type"), "text/javascript; charset=utf-8")
        XCTAssertTrue(script.text.contains("\"X-Mock-Admin\": \"1\""), "the console's writes must pass the guard")
        XCTAssertFalse(script.text.contains("innerHTML"), "client data goes in as text only")
        // The list of systems comes from the server (the registry), written into the page's drop-downs.
        let page = try server.request("GET", "/__mock/").text
        for type in SystemRegistry.types {
            XCTAssertFalse(script.text.contains("\"\(type.name)\""), "the script names \(type.name)")
            let option = "<option value=\"\(type.name)\" data-title=\"\(type.title)\">\(type.name)</option>"
            XCTAssertEqual(page.components(separatedBy: option).count - 1, 2, "fault and token drop-downs list \(type.name)")
        }
        // The account form: each system that creates accounts with its own fields, from the registry.
        for (name, required) in [("rows", "email"), ("gateway", "email"), ("skyzone", "email"), ("musbooking", "phone")] {
            XCTAssertTrue(page.contains("<option value=\"\(name)\">\(name)</option>"), "the account form offers \(name)")
            XCTAssertTrue(page.contains("data-system=\"\(name)\""), "\(name)'s fields")
            XCTAssertTrue(page.contains("id=\"account-\(name)-\(required)\" name=\"\(required)\""), "\(name) asks for \(required)")
        }
        XCTAssertTrue(page.contains("name=\"isConfirmed\""), "musbooking's confirmation is a checkbox")
        XCTAssertFalse(page.contains("data-system=\"rsschool\""), "rsschool creates no accounts")
        XCTAssertFalse(page.contains("{{"), "every placeholder filled")
        let style = try server.request("GET", "/__mock/console.css")
        XCTAssertEqual(style.header("Content-Type"), "text/css; charset=utf-8")
        XCTAssertTrue(style.text.contains("prefers-color-scheme: dark"))
        // Guarded like every admin path.
        XCTAssertEqual(try server.request("GET", "/__mock/", headers: [("Host", "evil.example")]).status, 403)
    }

    /// The markup side of the accessibility work (axe-core and a keyboard-only run drive the page
    /// itself in scripts/console-test.sh): tab roles tied to their panels, a name for every input
    /// outside a <label>, and Reset behind a confirmation dialog.
    /// The Stubs panel lists the mappings folder's refused mappings (issue 35: refused, listed,
    /// never dropped silently), from the same list as `GET /__admin/mappings/refused`.
    func testTheStubsPanelListsRefusedMappings() throws {
        let server = try TestServer()
        defer { server.stop() }
        let page = try server.request("GET", "/__mock/").text
        XCTAssertTrue(page.contains("id=\"stubs-refused-box\" hidden"), "hidden until something is refused")
        XCTAssertTrue(page.contains("id=\"stubs-refused\""))
        let script = try server.request("GET", "/__mock/console.js").text
        XCTAssertTrue(script.contains("api(\"GET\", \"/__admin/mappings/refused\")"), "the panel reads the refused list")
        XCTAssertEqual(try server.request("GET", "/__admin/mappings/refused").status, 200, "the console may read it")
    }

    func testThePageDeclaresTabRolesInputNamesAndAResetConfirmation() throws {
        let page = try TestServer().request("GET", "/__mock/").text
        XCTAssertTrue(page.contains(#"role="tablist""#))
        for panel in ["inbox", "accounts", "journal", "controls"] {
            XCTAssertTrue(page.contains(#"role="tab" id="tab-\#(panel)" data-tab="\#(panel)" aria-controls="\#(panel)""#), panel)
            XCTAssertTrue(page.contains(#"<section id="\#(panel)" class="panel\#(panel == "inbox" ? " active" : "")" role="tabpanel" aria-labelledby="tab-\#(panel)""#), panel)
        }
        for line in page.split(separator: "\n") where line.contains("<input") && !line.contains("<label") {
            XCTAssertTrue(line.contains("aria-label=\""), "an input without a name: \(line)")
        }
        XCTAssertTrue(page.contains(#"<dialog id="reset-dialog""#))
        XCTAssertTrue(page.contains(#"id="reset" class="danger" aria-haspopup="dialog""#))
    }

    func testTheConsoleCreatesAccountsAndListsInstances() throws {
        let server = try TestServer()
        let text = try server.request("GET", "/__mock/").text
        XCTAssertTrue(text.contains(#"<form id="account-form""#))
        XCTAssertTrue(text.contains(#"<select id="account-system"><option value="rows""#), "the systems, from the registry")
        XCTAssertTrue(text.contains(#"<div class="box" id="instances-box" hidden>"#))
        let script = try server.request("GET", "/__mock/console.js").text
        XCTAssertTrue(script.contains(#"api("POST", "/__mock/accounts", fields)"#))
        XCTAssertTrue(script.contains(#"api("GET", "/__mock/instances")"#))
        XCTAssertTrue(script.contains(#"api("POST", "/__mock/instances", {})"#))
        // What the form and the button send is what the API takes (the guard's header included).
        let created = try server.request("POST", "/__mock/accounts", headers: TestServer.adminWrite + [("Content-Type", "application/json")],
                                         body: Array(#"{"system": "rows", "email": "console@example.com", "password": "x1"}"#.utf8))
        XCTAssertEqual(created.status, 201)
        XCTAssertEqual(try server.request("POST", "/__mock/instances", headers: TestServer.adminWrite + [("Content-Type", "application/json")],
                                          body: Array("{}".utf8)).status, 201)
    }

    func testABrowserAtTheRootIsSentToTheConsoleAndAPIClientsKeepThe404() throws {
        let server = try TestServer()
        let before = try server.request("GET", "/")
        XCTAssertEqual(before.status, 404)
        let browser = "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8"
        for method in ["GET", "HEAD"] {
            let r = try server.request(method, "/", headers: [("Accept", browser)])
            XCTAssertEqual(r.status, 302, method)
            XCTAssertEqual(r.header("Location"), "/__mock/")
        }
        for accept in [nil, "*/*", "application/json", "application/json, text/html;q=0.5", "text/html;q=0"] {
            let r = try server.request("GET", "/", headers: accept.map { [("Accept", $0)] } ?? [])
            XCTAssertEqual(r.status, 404, accept ?? "none")
            XCTAssertEqual(r.text, before.text)
        }
        // `/` is a resource now (the browser's way in), so another method is told what it allows.
        let post = try server.request("POST", "/", headers: [("Accept", browser)])
        XCTAssertEqual(post.status, 405)
        XCTAssertEqual(post.header("Allow"), "GET, HEAD, OPTIONS")
        XCTAssertEqual(try server.request("GET", "/nowhere", headers: [("Accept", browser)]).status, 404)
    }

    func testAccountsListEverySystemWithoutSecretsAndFollowTheirState() throws {
        let server = try TestServer()
        func accounts() throws -> [String: [[String: Any]]] {
            let r = try server.request("GET", "/__mock/accounts")
            XCTAssertEqual(r.status, 200)
            return try XCTUnwrap(r.json as? [String: [[String: Any]]], r.text)
        }
        let initial = try accounts()
        XCTAssertEqual(Set(initial.keys), ["rows", "gateway", "skyzone", "musbooking", "rsschool"])
        XCTAssertEqual(initial["rows"]?.first?["login"] as? String, "johndown@exmample.com")
        XCTAssertEqual(initial["rsschool"]?.first?["login"] as? String, "username")

        let code = try server.musbookingCode(phone: "+7 (912) 345-67-89")
        XCTAssertEqual(try server.request("POST", "/api/users/register", form: [
            ("name", "Иван"), ("phone", "9123456789"), ("code", code), ("password", "Secret99"), ("email", "ivan@example.ru"),
        ]).status, 200)
        let token = try server.musbookingLogin("9123456789", "Secret99")
        XCTAssertEqual(try server.request("POST", "/api/users/send-confirm", headers: bearer(token)).status, 200)

        let raw = try server.request("GET", "/__mock/accounts").text
        for secret in ["Secret99", token, "\"password\"", "\"1234567\"", "\"123123\"", "password1", "\"123456\"", "\"132\""] {
            XCTAssertFalse(raw.contains(secret), "\(secret) shown in \(raw)")
        }
        func ivan() throws -> [String: Any] {
            try XCTUnwrap(try accounts()["musbooking"]?.first { $0["login"] as? String == "9123456789" })
        }
        let before = try ivan()
        XCTAssertEqual(before["isConfirmed"] as? Bool, false)
        XCTAssertEqual(before["name"] as? String, "Иван")
        XCTAssertEqual(before["phone"] as? String, "9123456789")
        let sessions = try XCTUnwrap(before["sessions"] as? [[String: Any]])
        XCTAssertEqual(sessions.map { $0["token"] as? String }, [String(token.prefix(4)) + "…"])
        // The session's end in the one date form of /__mock/ (the wire type writes it, whatever the encoder).
        let expiresAt = try XCTUnwrap(sessions.first?["expiresAt"] as? String)
        XCTAssertNotNil(expiresAt.range(of: #"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$"#, options: .regularExpression), expiresAt)

        let link = try XCTUnwrap(server.outbox.emails().last?.link)
        let path = try XCTUnwrap(URL(string: link)).path + "?" + (URL(string: link)?.query ?? "")
        XCTAssertEqual(try server.request("GET", path).status, 200)
        XCTAssertEqual(try ivan()["isConfirmed"] as? Bool, true)

        // A new login ends the old session: the listing follows.
        let second = try server.musbookingLogin("9123456789", "Secret99")
        XCTAssertEqual((try ivan()["sessions"] as? [[String: Any]])?.map { $0["token"] as? String }, [String(second.prefix(4)) + "…"])
        XCTAssertEqual(try server.request("POST", "/__mock/reset", headers: [("X-Mock-Admin", "1")]).status, 204)
        XCTAssertNil(try accounts()["musbooking"]?.first { $0["login"] as? String == "9123456789" })
    }

    func testTokensAreShortenedToFourCharacters() {
        XCTAssertEqual(AccountSummary.shorten("abcdef-123"), "abcd…")
        XCTAssertEqual(AccountSummary.shorten("abcd"), "…")
        XCTAssertEqual(AccountSummary.Session(token: "0123456789").token, "0123…")
    }
}
