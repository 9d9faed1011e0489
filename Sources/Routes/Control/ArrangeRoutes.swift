import Foundation
import HTTPServer

extension ControlPlane {
    /// An outbox read, answered at once, or with `?waitMs=` once it has a message (or at the deadline).
    func waitForOutbox<T: Encodable & Sendable>(_ request: HTTPRequest, _ read: @escaping @Sendable () -> [T]) -> HTTPResponse {
        switch Waiters.waitMs(request.queryParameters) {
        case .failure(let problem): return ControlPlane.badRequest(problem.description)
        case .success(let ms):
            return waiters.wait(ms: ms, ready: {
                let found = read()
                return found.isEmpty ? nil : .json(.ok, found)
            }, timeout: { .json(.ok, read()) })
        }
    }
}

extension MockAdmin {
    /// API.md §6.3's arrange operations: the outbox's parts emptied on their own, and the whole
    /// state as one document (the `--state` file's format) read and replaced.
    func registerArrange(in router: inout Router) {
        let outbox = environment.outbox
        router.delete("/__mock/sms", `guard`.wrap { _ in
            outbox.clearSMS()
            return .empty(.noContent)
        })
        router.delete("/__mock/emails", `guard`.wrap { _ in
            outbox.clearEmails()
            return .empty(.noContent)
        })
        let state = StateDocument(parts: [outbox] + systems.compactMap { $0 as? any PersistentSystem }, clock: control.clock)
        router.get("/__mock/state", `guard`.wrap { _ in
            do { return .json(bytes: Array(try state.encode())) } catch {
                return .json(.internalServerError, ["error": .string("cannot encode the state: \(error)")] as JSONValue)
            }
        })
        router.put("/__mock/state", `guard`.wrap { request in
            do {
                try state.replace(with: Data(request.body))
                return .empty(.noContent)
            } catch {
                return ControlPlane.badRequest("\(error)")
            }
        })
    }
}
