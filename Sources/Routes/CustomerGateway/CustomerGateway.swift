#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPServer
import EmulationKit

/// The customer gateway's seed: its accounts and how long an API token lives.
package struct CustomerGatewaySeed: Decodable, Sendable {
    /// One customer that may log in.
    package struct Account: Decodable, Sendable, Equatable {
        package var customerId: String
        package var email: String
        package var password: String
    }

    package var accounts: [Account]
    package var tokenLifetimeSeconds: Int
}

/// The customer gateway (document 000): JSON messages over a WebSocket, `LOGIN_CUSTOMER`
/// answered with an API token or a `CUSTOMER_ERROR`.
package final class CustomerGateway: EmulatedSystem {
    /// The WebSocket path clients connect to.
    package static let path = "/customer-gateway/customer"

    /// Keyed by the lowercased e-mail: addresses are case-insensitive in practice, and clients
    /// (and their users) capitalise them freely.
    /// By lowercased e-mail: the seed's, and those `/__mock/accounts` added or removed.
    let accounts: AccountOverlay<CustomerGatewaySeed.Account>
    private let tokenLifetime: TimeInterval
    /// No endpoint ever reads an API token back, so none is stored: signed tokens can still be
    /// checked (tests, diagnostics) and a load test of logins costs no memory.
    let tokens: SignedTokens
    let environment: MockEnvironment
    package let seedAccount: String?

    package init(seed: CustomerGatewaySeed, environment: MockEnvironment) {
        self.environment = environment
        tokens = SignedTokens(random: environment.random)
        var accounts: [String: CustomerGatewaySeed.Account] = [:]
        for account in seed.accounts { accounts[account.email.lowercased()] = account }
        self.accounts = AccountOverlay(accounts)
        seedAccount = seed.accounts.first.map { "\($0.email) / \($0.password)" }
        tokenLifetime = TimeInterval(max(0, seed.tokenLifetimeSeconds))
    }

    package static let name = "gateway"
    package static let title = "Customer gateway"
    package static let seedKey = "customerGateway"
    /// Its messages' `type` is what a gateway fault rule's `path` matches.
    package static let faultsMatchMessageTypes = true
    package let summary = "The customer gateway (document 000): JSON messages over a WebSocket; LOGIN_CUSTOMER returns an API token."
    package let endpoints = [
        Endpoint("WS", CustomerGateway.path, "WebSocket: send {\"type\": \"LOGIN_CUSTOMER\", \"sequence_id\", \"data\": {\"email\", \"password\"}}."),
    ]
    package let routeGroup = RouteGroup(system: CustomerGateway.name, prefixes: ["/customer-gateway"])

    package func register(in router: inout Router) {
        // A message the fault stage has read already (message rules set) is not parsed again.
        router.webSocket(CustomerGateway.path, WebSocketEndpoint(onMessage: { [self] message, context in
            answer(context.reading ?? CustomerGateway.read(message.bytes), in: &context)
        }))
    }

    package func reset() {
        accounts.reset()
        tokens.rotate()
    }

    /// No message presents a token back, so this only changes what `isIssued` says.
    package func expireTokens(_ token: String?) -> Int { tokens.revoke(token) }
    package func revokeTokens(_ token: String?) -> Int { tokens.revoke(token) }

    /// The number of API tokens issued since the last reset (diagnostics and tests).
    package var issuedTokenCount: Int { tokens.issuedSinceRotation }

    /// Whether the token was issued by this gateway since the last reset.
    package func isIssued(_ token: String) -> Bool { tokens.isValid(token) }

    /// Answers one message: JSON in a text or a binary frame; the reply is always text.
    package func reply(to message: WebSocketMessage) -> WebSocketMessage {
        WebSocketPayload(utf8Text: reply(to: CustomerGateway.read(WebSocketPayload(message).bytes), log: nil)).message
    }

    /// The reply to a message read once (here or by the fault stage), as the bytes of one text
    /// message, with its log line's facts (type, `sequence_id`, outcome) in the context, which
    /// the transport writes once the reply is sent; none below the info level.
    func answer(_ message: MessageReading, in context: inout MessageContext) -> WebSocketReply {
        let log = environment.logger.isEnabled(.info) ? context.messageLog(system: CustomerGateway.name) : nil
        return WebSocketReply(messages: [WebSocketPayload(utf8Text: reply(to: message, log: log))])
    }

    /// The keys and the message type every message carries: read without decoding them again.
    static let words = JSONWords { text in
        switch text.count {
        case 4:
            if JSONWords.spells(text, "type") { return "type" }
            if JSONWords.spells(text, "data") { return "data" }
        case 5: if JSONWords.spells(text, "email") { return "email" }
        case 8: if JSONWords.spells(text, "password") { return "password" }
        case 11: if JSONWords.spells(text, "sequence_id") { return "sequence_id" }
        case 14: if JSONWords.spells(text, "LOGIN_CUSTOMER") { return "LOGIN_CUSTOMER" }
        default: break
        }
        return nil
    }

    /// Answers one message given as JSON text.
    package func replyText(to text: String) -> String {
        replyText(to: Array(text.utf8))
    }

    /// Answers one message given as JSON bytes (UTF-8, pretty-printed or not); the reply's JSON text.
    package func replyText(to bytes: [UInt8]) -> String {
        String(decoding: reply(to: CustomerGateway.read(bytes), log: nil), as: UTF8.self)
    }

    /// The reply's JSON (UTF-8). `environment.random` is read only where a reply needs it:
    /// copying the existential on every message cost measurably.
    /// `log` (when the line is logged) gets the message's type, id and outcome.
    private func reply(to reading: MessageReading, log: MessageLog?) -> [UInt8] {
        guard let message = reading.json else {
            log?.setOutcome("CUSTOMER_ERROR message.invalid")
            return GatewayReply.error(sequenceId: .init(JSONValue?.none, random: environment.random), code: "message.invalid",
                                      description: "Message is not valid JSON", event: .empty, random: environment.random)
        }
        guard message.isObject else {
            log?.setOutcome("CUSTOMER_ERROR message.invalid")
            return GatewayReply.error(sequenceId: .init(JSONValue?.none, random: environment.random), code: "message.invalid",
                                      description: "Message must be a JSON object {\"type\", \"sequence_id\", \"data\"}",
                                      event: .empty, random: environment.random)
        }
        // A client matches replies by sequence_id: keep it verbatim, whatever its type; without one, still answer.
        let sequenceId = GatewayReply.SequenceId(reading.id, random: environment.random)
        log?.setId(sequenceId.text)
        guard let type = reading.type, !type.isEmpty else {
            log?.setOutcome("CUSTOMER_ERROR message.typeMissing")
            return GatewayReply.error(sequenceId: sequenceId, code: "message.typeMissing",
                                      description: "Message has no \"type\" string", event: .empty, random: environment.random)
        }
        log?.setType(type)
        switch type {
        case "LOGIN_CUSTOMER":
            return loginCustomer(message["data"], sequenceId: sequenceId, log: log)
        default:
            // The document itself prints "LOGIN CUSTOMER"; point copy-pasting clients at the real name.
            let hint = type.uppercased().replacing(" ", with: "_") == "LOGIN_CUSTOMER" && type != "LOGIN_CUSTOMER"
                ? "; did you mean \"LOGIN_CUSTOMER\"?" : ""
            var event = GatewayReply.Event.empty
            event.type = type
            log?.setOutcome("CUSTOMER_ERROR message.unknownType")
            return GatewayReply.error(sequenceId: sequenceId, code: "message.unknownType",
                                      description: "Unknown message type \(JSONText.quoted(type))\(hint)", event: event, random: environment.random)
        }
    }

    // MARK: - LOGIN_CUSTOMER

    private func loginCustomer(_ data: JSONValue?, sequenceId: GatewayReply.SequenceId, log: MessageLog?) -> [UInt8] {
        var event = GatewayReply.Event.empty
        event.type = "LOGIN_CUSTOMER"
        let fields: JSONValue
        switch data {
        case nil, .null?: fields = .object([])
        case .object?: fields = data ?? .object([])
        default:
            log?.setOutcome("CUSTOMER_ERROR message.invalid")
            return GatewayReply.error(sequenceId: sequenceId, code: "message.invalid",
                                      description: "\"data\" must be a JSON object {\"email\", \"password\"}", event: event, random: environment.random)
        }
        // Each member looked up once: both are read twice below.
        let emailValue = fields["email"], passwordValue = fields["password"]
        let email = emailValue?.string
        let password = passwordValue?.string
        event.email = email ?? ""
        // Never echo a password, nor its length.
        event.password = (password?.isEmpty ?? true) ? "" : "******"

        var errors: [GatewayReply.FieldError] = []
        switch emailValue {
        case nil, .null?: errors.append(.init(field: "email", message: "Email is required"))
        case .string(let text)? where text.isEmpty: errors.append(.init(field: "email", message: "Email is required"))
        case .string(let text)? where !EmailAddress.isValid(text):
            errors.append(.init(field: "email", message: "Email is not a valid e-mail address"))
        case .string?: break
        default: errors.append(.init(field: "email", message: "Email must be a string"))
        }
        switch passwordValue {
        case nil, .null?: errors.append(.init(field: "password", message: "Password is required"))
        case .string(let text)? where text.isEmpty: errors.append(.init(field: "password", message: "Password is required"))
        case .string?: break
        default: errors.append(.init(field: "password", message: "Password must be a string"))
        }
        guard errors.isEmpty, let email, let password else {
            log?.setOutcome("CUSTOMER_VALIDATION_ERROR")
            return GatewayReply.validationError(sequenceId: sequenceId, errors: errors, event: event, random: environment.random)
        }

        // The same answer for an unknown e-mail and a wrong password, down to a fresh `customer_id`
        // each time: a stable id for known e-mails would let anyone probe which accounts exist.
        let key = email.lowercased()
        guard let account = accounts[key], account.password == password else {
            log?.setOutcome("CUSTOMER_ERROR customer.notFound")
            return GatewayReply.error(sequenceId: sequenceId, code: "customer.notFound", description: "Customer not found",
                                      event: event, random: environment.random)
        }
        let token = tokens.issueWords(account: key)
        let expiry = environment.clock.now().addingTimeInterval(tokenLifetime)
        environment.logger.debug("customer gateway: \(account.customerId) logged in")
        log?.setOutcome("CUSTOMER_API_TOKEN")
        return GatewayReply.apiToken(sequenceId: sequenceId, token: token, expiration: expiry)
    }
}
