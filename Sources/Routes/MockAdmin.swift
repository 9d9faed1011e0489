import HTTPServer

/// The mock's own routes under `/__mock/`: health, the outbox, reset, and a WebSocket echo.
struct MockAdmin: Sendable {
    let environment: MockEnvironment
    let adminToken: String?
    let resetAll: @Sendable () -> Void
    let control: ControlPlane

    static let tokenHeader = "X-Mock-Admin-Token"

    func register(in router: inout Router) {
        let outbox = environment.outbox
        router.get("/__mock/health") { _ in .json(object: ["status": "ok"]) }
        router.get("/__mock/sms", guarded { request in
            .json(.ok, outbox.sms(phone: request.queryParameters["phone"]))
        })
        router.get("/__mock/emails", guarded { request in
            .json(.ok, outbox.emails(to: request.queryParameters["to"]))
        })
        router.post("/__mock/reset", guarded { [environment, resetAll] request in
            resetAll()
            environment.logger.info("state reset to the seed by \(request.remoteAddress)")
            return .empty(.noContent)
        })
        // Conformance runs and diagnostics: every message comes back unchanged.
        router.webSocket("/__mock/echo") { message in [message] }
        control.register(in: &router, guarded: guarded)
    }

    /// Admin routes answer loopback clients, or anyone sending the configured admin token.
    func guarded(_ handler: @escaping HTTPHandler) -> HTTPHandler {
        { [adminToken] request in
            if let adminToken, !adminToken.isEmpty {
                guard request.headers[MockAdmin.tokenHeader] == adminToken || request.isFromLoopback && request.headers[MockAdmin.tokenHeader] == nil else {
                    return .json(.forbidden, object: ["error": "admin routes need the \(MockAdmin.tokenHeader) header"])
                }
            } else if !request.isFromLoopback {
                return .json(.forbidden, object: ["error": "admin routes answer loopback clients only (start with --admin-token to open them)"])
            }
            return handler(request)
        }
    }
}
