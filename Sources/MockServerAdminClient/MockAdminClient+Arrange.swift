import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Arrange, isolate, verify (docs/control-plane.md, "Arrange, isolate, verify"): accounts, outbox parts, state snapshots, a reset to a
/// given seed, instances, counts and waits. Waits are one request each (`?waitMs=`, at most 30 s
/// a request), not a polling loop.
extension MockAdminClient {
    /// The longest one wait request may hold (the server's bound).
    static let maxWaitMs = 30_000

    // MARK: Accounts

    /// Every system's accounts, keyed by system.
    public func accounts() async throws -> [String: [MockAccount]] {
        try decode([String: [MockAccount]].self, try await send(.accounts, expecting: 200))
    }

    /// Creates an account directly on `system` from its fields (docs/control-plane.md, "Arrange, isolate, verify"), e.g. a confirmed
    /// user: `createAccount(system: "musbooking", fields: ["phone": "9123456789", "password":
    /// "pass123", "email": "a@b.ru", "isConfirmed": true])`. 400 names a bad field; 409: it exists.
    @discardableResult
    public func createAccount(system: String, fields: [String: Any]) async throws -> MockAccount {
        var object = fields
        object["system"] = system
        let body = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        return try decode(MockAccount.self, try await send(.createAccount, body: body, expecting: 201))
    }

    /// Removes one account (by the id the listing shows) and ends its sessions.
    public func removeAccount(system: String, id: String) async throws {
        _ = try await send(.removeAccount, system, id, expecting: 204)
    }

    // MARK: Outbox parts

    /// Forgets every SMS; the e-mails stay.
    public func clearSMS() async throws { _ = try await send(.clearSMS, expecting: 204) }

    /// Forgets every e-mail; the SMS stay.
    public func clearEmails() async throws { _ = try await send(.clearEmails, expecting: 204) }

    // MARK: State

    /// The whole state (every system, the outbox, the clock offset) as one document.
    public func state() async throws -> Data {
        try await send(.state, expecting: 200)
    }

    /// Puts back a document from `state()`: all at once, or (a failure) nothing.
    public func restoreState(_ document: Data) async throws {
        _ = try await send(.restoreState, body: document, expecting: 204)
    }

    /// Every system reset to `seed` (seed.json's format, as JSON data) instead of the start seed.
    public func reset(seed: Data) async throws {
        guard let object = try? JSONSerialization.jsonObject(with: seed), object is [String: Any] else {
            throw Failure(description: "the seed must be a JSON object in seed.json's format")
        }
        let body = try JSONSerialization.data(withJSONObject: ["seed": object])
        _ = try await send(.reset, body: body, expecting: 204)
    }

    // MARK: Instances

    /// Starts an isolated mock on a new port (from the start seed, or `seed`; with its own fixed SMS code if given).
    public func createInstance(seed: Data? = nil, smsCode: String? = nil) async throws -> MockInstance {
        var object: [String: Any] = [:]
        if let seed { object["seed"] = try JSONSerialization.jsonObject(with: seed) }
        object["smsCode"] = smsCode
        let body = try JSONSerialization.data(withJSONObject: object)
        return try decode(MockInstance.self, try await send(.createInstance, body: body, expecting: 201))
    }

    /// The running instances.
    public func instances() async throws -> [MockInstance] {
        try decode([MockInstance].self, try await send(.instances, expecting: 200))
    }

    /// Stops an instance.
    public func removeInstance(_ id: String) async throws {
        _ = try await send(.removeInstance, id, expecting: 204)
    }

    // MARK: Verify

    /// The journal entries matching `filter` (at most `limit`; the server's default is 100).
    public func requests(_ filter: MockRequestFilter, limit: Int? = nil) async throws -> [MockJournalEntry] {
        var query = filter.query
        query["limit"] = limit.map(String.init)
        return try decode([MockJournalEntry].self, try await send(.requests, query: query, expecting: 200))
    }

    /// How many journal entries match `filter`.
    public func requestCount(_ filter: MockRequestFilter = MockRequestFilter()) async throws -> Int {
        struct Count: Decodable { var count: Int }
        return try decode(Count.self, try await send(.requestCount, query: filter.query, expecting: 200)).count
    }

    /// Waits until at least `count` journal entries match `filter` and returns their number;
    /// throws when `timeout` seconds pass first.
    @discardableResult
    public func waitForRequests(_ filter: MockRequestFilter, count: Int = 1, timeout: TimeInterval = 10) async throws -> Int {
        struct Count: Decodable { var count: Int }
        var found = 0
        try await waiting(timeout) { ms in
            var query = filter.query
            query["atLeast"] = String(count)
            query["waitMs"] = String(ms)
            found = try decode(Count.self, try await send(.requestCount, query: query, expecting: 200)).count
            return found >= count
        } failure: { "fewer than \(count) matching requests within \(timeout) s (\(found) so far)" }
        return found
    }

    /// Waits for an SMS to `phone` and returns it.
    ///
    /// - Parameters:
    ///   - phone: The number, in any form (`+7 912 345-67-89`, `89123456789`, `9123456789`).
    ///   - new: `true` (the default): only an SMS that arrives after this call started counts;
    ///     the ones already in the outbox for `phone` are skipped, so a test that asks for a code
    ///     twice gets the second one. `false`: the newest SMS to `phone` counts even if it was
    ///     already there, so the call returns at once when there is one.
    ///   - timeout: Seconds to wait in all.
    /// - Returns: The newest matching SMS.
    /// - Throws: ``Failure`` when `timeout` seconds pass without a matching SMS (its description
    ///   says how many SMS to `phone` there were), and on any admin error. It never returns an
    ///   older SMS at the deadline.
    ///
    /// The server holds the request until an SMS arrives (`?waitMs=`, at most 30 s a request,
    /// asked again until the deadline), so the wait costs no polling. When older SMS to `phone`
    /// are there and `new` is true, the server cannot tell old from new: the client then asks
    /// again every 50 ms. Clear the SMS first (``clearSMS()``) to keep it one held request.
    public func waitForSMS(to phone: String, new: Bool = true, timeout: TimeInterval = 10) async throws -> MockSMS {
        try await waitForMessage(.sms, filter: ["phone": phone], new: new, timeout: timeout, as: MockSMS.self) {
            "no SMS to \(phone) within \(timeout) s (\($0) to it so far)"
        }
    }

    /// Waits for an e-mail to `address` (any case) and returns it; `new` and the deadline work as
    /// in ``waitForSMS(to:new:timeout:)``: `true` skips the e-mails already there, and at the
    /// deadline it throws ``Failure`` rather than returning an older one.
    public func waitForEmail(to address: String, new: Bool = true, timeout: TimeInterval = 10) async throws -> MockEmail {
        try await waitForMessage(.emails, filter: ["to": address], new: new, timeout: timeout, as: MockEmail.self) {
            "no e-mail to \(address) within \(timeout) s (\($0) to it so far)"
        }
    }

    /// One outbox part's wait: the server holds the request while nothing matches; with older
    /// matches already there it answers at once, so the next ask comes after a short pause.
    private func waitForMessage<Message: Decodable>(_ route: MockAdminRoute, filter: [String: String], new: Bool, timeout: TimeInterval,
                                                    as type: Message.Type, failure: (Int) -> String) async throws -> Message {
        let already = new ? try decode([Message].self, try await send(route, query: filter, expecting: 200)).count : 0
        var seen = already
        var result: Message?
        try await waiting(timeout) { ms in
            let query = filter.merging(["waitMs": String(already == 0 ? ms : 0)]) { $1 }
            let messages = try decode([Message].self, try await send(route, query: query, expecting: 200))
            seen = messages.count
            if messages.count > already, let last = messages.last { result = last; return true }
            if already > 0 { try await Task.sleep(nanoseconds: 50_000_000) }
            return false
        } failure: { failure(seen) }
        guard let result else { throw Failure(description: failure(seen)) }
        return result
    }

    /// Waits until `GET /__mock/health` answers 200 (a server starting up); throws after `timeout` s.
    public func waitUntilHealthy(timeout: TimeInterval = 10) async throws {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while await !health() {
            // Nothing to hold a request open on before the server listens: retry briefly.
            guard Date() < deadline else { throw Failure(description: "\(baseURL) not healthy within \(timeout) s") }
            try await Task.sleep(nanoseconds: 50_000_000)
        }
    }

    /// Runs `attempt` with the milliseconds left (at most the server's bound) until it reports
    /// success or the deadline passes.
    private func waiting(_ timeout: TimeInterval, _ attempt: (Int) async throws -> Bool, failure: () -> String) async throws {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while true {
            let left = Int(deadline.timeIntervalSinceNow * 1000)
            if try await attempt(max(0, min(left, MockAdminClient.maxWaitMs))) { return }
            guard Date() < deadline else { throw Failure(description: failure()) }
        }
    }
}
