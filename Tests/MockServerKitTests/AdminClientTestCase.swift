import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import XCTest
import MockServerAdminClient
import MockServerKit

/// What the admin-client tests share: an embedded server on an ephemeral port, stopped after
/// each test, and plain HTTP calls to it beside the client's.
class AdminClientTestCase: XCTestCase {
    private var server: EmbeddedMockServer?

    override func tearDown() {
        server?.stop()
        server = nil
        super.tearDown()
    }

    /// A fresh server (stopped in `tearDown`) and its admin client.
    func start() throws -> (EmbeddedMockServer, MockAdminClient) {
        let server = try EmbeddedMockServer()
        self.server = server
        return (server, server.admin)
    }

    /// `method path` on `server`, with a form body and a bearer token when given.
    func call(_ server: EmbeddedMockServer, _ method: String, _ path: String, form: String? = nil,
              bearer token: String? = nil) async throws -> (status: Int, body: String) {
        try await call(server.baseURL.absoluteString, method, path, form: form, bearer: token)
    }

    /// `method path` on the server at `base` (an instance's URL, say).
    func call(_ base: String, _ method: String, _ path: String, form: String? = nil,
              bearer token: String? = nil) async throws -> (status: Int, body: String) {
        let url = try XCTUnwrap(URL(string: base + path))
        var request = URLRequest(url: url)
        request.httpMethod = method
        if let form {
            request.httpBody = Data(form.utf8)
            request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        }
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        let (data, response) = try await URLSession.shared.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
    }
}
