#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPServer
import EmulationKit
import MockControl
import StatePersistence

extension ControlPlane {
    /// An outbox read, answered at once, or with `?waitMs=` once it has a message (or at the deadline).
    func waitForOutbox<T: Encodable & Sendable>(_ request: HTTPRequest, in context: inout RequestContext,
                                                _ read: @escaping @Sendable () -> [T]) -> HTTPResponse {
        switch waiters.waitMs(request.queryParameters) {
        case .failure(let problem): return ControlPlane.badRequest(problem.description, hint: problem.hint)
        case .success(let ms):
            return waiters.wait(ms: ms, in: &context, ready: {
                let found = read()
                return found.isEmpty ? nil : .json(.ok, found)
            }, timeout: { .json(.ok, read()) })
        }
    }
}

extension MockAdmin {
    // docs/control-plane.md's arrange operations: the outbox's parts emptied on their own, and the whole
    // state as one document (the `--state` file's format) read and replaced (routes and documentation:
    // the admin table, `MockAdmin.routes`).

    /// `DELETE /__mock/sms`: the outbox's SMS part emptied.
    var clearSMSHandler: HTTPHandler {
        let outbox = environment.outbox
        return { [control] _, _ in
            outbox.clearSMS()
            control.publish(.outboxCleared) { ["part": "sms"] }
            return .empty(.noContent)
        }
    }

    /// `DELETE /__mock/emails`: the outbox's e-mail part emptied.
    var clearEmailsHandler: HTTPHandler {
        let outbox = environment.outbox
        return { [control] _, _ in
            outbox.clearEmails()
            control.publish(.outboxCleared) { ["part": "emails"] }
            return .empty(.noContent)
        }
    }

    /// `POST /__mock/accounts`: an account made directly, on a system that administers accounts.
    var createAccountHandler: HTTPHandler {
        let administered = systems.compactMap { $0 as? any AccountAdministration }
        let names = administered.map(\.name)
        return { [environment, control] request, _ in
            guard case .object(let members)? = JSONValue.parse(request.body) else {
                return ControlPlane.badRequest("the body must be a JSON object {\"system\": \"<name>\", …the account's fields}")
            }
            guard let name = members.first(where: { $0.key == "system" })?.value.string else {
                return ControlPlane.badRequest("\"system\" is required: one of \(names.joined(separator: ", "))")
            }
            guard let system = administered.first(where: { $0.name == name }) else {
                return ControlPlane.badRequest("\"system\": accounts can be created on \(names.joined(separator: ", ")), not \(JSONText.quoted(name))")
            }
            do throws(AccountProblem) {
                let account = try system.createAccount(AccountFields(members))
                environment.logger.info("\(name): account \(account.login ?? account.id ?? "") created through /__mock/accounts")
                control.publish(.accountCreated) { ["system": .string(name), "account": (try? JSONValue(encoding: account)) ?? .null] }
                return .json(.created, account)
            } catch {
                switch error {
                case .invalid(let text): return ControlPlane.badRequest("\(name): \(text)")
                case .exists(let text): return .json(.conflict, ["error": .string(text)] as JSONValue)
                case .full(let text): return .json(.serviceUnavailable, ["error": .string(text)] as JSONValue)
                        .hinted("Remove accounts, reset, or raise the cap the message names.")
                }
            }
        }
    }

    /// `DELETE /__mock/accounts/:system/:id`: the account removed, its sessions ended.
    var removeAccountHandler: HTTPHandler {
        let administered = systems.compactMap { $0 as? any AccountAdministration }
        return { [environment, control] request, context in
            let name = context.pathParameters["system"] ?? "", id = context.pathParameters["id"] ?? ""
            guard let system = administered.first(where: { $0.name == name }), system.removeAccount(id: id) else {
                return .json(.notFound, ["error": .string("no \(name) account with id \(id)")] as JSONValue)
            }
            environment.logger.info("\(name): account \(id) deleted through /__mock/accounts (its sessions ended)")
            control.publish(.accountDeleted) { ["system": .string(name), "id": .string(id)] }
            return .empty(.noContent)
        }
    }

    /// `GET /__mock/state`: the whole state as one document (the `--state` file's format).
    var stateHandler: HTTPHandler {
        let state = StateDocument(systems: systems, outbox: environment.outbox, clock: control.clock)
        return { _, _ in
            do { return .json(bytes: Array(try state.encode())) } catch {
                return .json(.internalServerError, ["error": .string("cannot encode the state: \(error)")] as JSONValue)
            }
        }
    }

    /// `PUT /__mock/state`: the whole state replaced by such a document.
    var replaceStateHandler: HTTPHandler {
        let state = StateDocument(systems: systems, outbox: environment.outbox, clock: control.clock)
        return { [switcher, control] request, context in
            do {
                // With a switcher, an app restored off to the side takes this one's place, so no
                // connection sees some systems restored and others not; the 204 waits for that.
                if let restore = switcher.restore {
                    let promise = DeferredResponse(timeoutNanos: 30_000_000_000)
                    try restore(request.body) {
                        control.publish(.stateReplaced)
                        _ = promise.complete()
                    }
                    return context.deferring(.empty(.noContent), until: promise)
                }
                try state.replace(with: Data(request.body))
                control.publish(.stateReplaced)
                return .empty(.noContent)
            } catch {
                return ControlPlane.badRequest("\(error)")
            }
        }
    }
}
