import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The test controls of `/__mock/` (journal, faults, clock, tokens). Every state-changing call
/// sends `Content-Type: application/json`, which the admin guard requires of writes.
extension MockAdminClient {
    // MARK: Journal

    /// The newest journaled requests, oldest first (`GET /__mock/requests`): only `system`'s,
    /// only `path` (exact or a pattern with `*`), only after the entry with id `since`, at most
    /// `limit` (the server's default is 100).
    public func requests(system: String? = nil, path: String? = nil, since: Int? = nil, limit: Int? = nil) async throws -> [MockJournalEntry] {
        let query = MockAdminClient.journalQuery(system: system, path: path, since: since, limit: limit)
        return try decode([MockJournalEntry].self, try await send(.requests, query: query, expecting: 200))
    }

    /// The journal's filters as `GET /__mock/requests` and `/__mock/requests.har` take them.
    static func journalQuery(system: String?, path: String?, since: Int?, limit: Int?) -> [String: String] {
        var query: [String: String] = [:]
        query["system"] = system
        query["path"] = path
        query["since"] = since.map(String.init)
        query["limit"] = limit.map(String.init)
        return query
    }

    /// Empties the journal.
    public func clearRequests() async throws {
        _ = try await send(.clearRequests, expecting: 204)
    }

    /// The journal as a HAR 1.2 document (`GET /__mock/requests.har`), for browser devtools or
    /// Charles, filtered as ``requests(system:path:since:limit:)`` filters.
    public func requestsHAR(system: String? = nil, path: String? = nil, since: Int? = nil, limit: Int? = nil) async throws -> Data {
        try await send(.requestsHAR, query: MockAdminClient.journalQuery(system: system, path: path, since: since, limit: limit), expecting: 200)
    }

    /// Adds a HAR 1.2 document's entries as stubs (`POST /__admin/mappings/import-har`): a
    /// browser's "Save all as HAR", Charles, or ``requestsHAR(system:path:since:limit:)`` of another
    /// server. Returns how many mappings were made.
    @discardableResult
    public func importHAR(_ document: Data) async throws -> Int {
        struct Made: Decodable { var mappings: [MockStub] }
        return try decode(Made.self, try await send(.importHAR, body: document, expecting: 200)).mappings.count
    }

    /// Keeps journal entry `id`'s answer as a stub mapping (`POST /__mock/requests/{id}/stub`):
    /// the same request is answered by it from now on, with the same status, fields and body.
    @discardableResult
    public func keepAsStub(journalEntry id: Int) async throws -> MockStub {
        try decode(MockStub.self, try await send(.keepAsStub, String(id), expecting: 201))
    }

    // MARK: Faults

    /// Adds a fault rule and returns its id. `times` nil: it fires until removed.
    @discardableResult
    public func addFault(method: String? = nil, path: String, system: String? = nil, times: Int? = nil,
                         action: MockFaultAction) async throws -> Int {
        struct Rule: Encodable {
            var method: String?, path: String, system: String?, times: Int?, action: MockFaultAction
        }
        let body = try JSONEncoder().encode(Rule(method: method, path: path, system: system, times: times, action: action))
        return try decode(MockFaultRule.self, try await send(.addFault, body: body, expecting: 201)).id
    }

    /// The active fault rules with their remaining counts.
    public func faults() async throws -> [MockFaultRule] {
        try decode([MockFaultRule].self, try await send(.faults, expecting: 200))
    }

    /// Removes one fault rule (a failure if there is none with that id).
    public func removeFault(_ id: Int) async throws {
        _ = try await send(.removeFault, String(id), expecting: 204)
    }

    /// Removes every fault rule.
    public func removeAllFaults() async throws {
        _ = try await send(.removeAllFaults, expecting: 204)
    }

    // MARK: Clock

    /// The mock's clock.
    public func clock() async throws -> MockClock {
        try decode(MockClock.self, try await send(.clock, expecting: 200))
    }

    /// Moves the mock's clock forward (`seconds` > 0, fractions allowed): token expiry, `sentAt`, dates.
    @discardableResult
    public func advanceClock(seconds: Double) async throws -> MockClock {
        let body = try JSONSerialization.data(withJSONObject: ["advanceSeconds": seconds])
        return try decode(MockClock.self, try await send(.advanceClock, body: body, expecting: 200))
    }

    /// Puts the clock back to real time.
    @discardableResult
    public func resetClock() async throws -> MockClock {
        try decode(MockClock.self, try await send(.resetClock, expecting: 200))
    }

    // MARK: Tokens

    /// Expires one token, all of `system`'s, or (neither given) every system's; returns how many.
    @discardableResult
    public func expireTokens(system: String? = nil, token: String? = nil) async throws -> Int {
        try await tokens(.expireTokens, system: system, token: token)
    }

    /// Revokes one token, all of `system`'s, or (neither given) every system's; returns how many.
    @discardableResult
    public func revokeTokens(system: String? = nil, token: String? = nil) async throws -> Int {
        try await tokens(.revokeTokens, system: system, token: token)
    }

    private func tokens(_ route: MockAdminRoute, system: String?, token: String?) async throws -> Int {
        struct Body: Encodable { var system: String?, token: String? }
        struct Affected: Decodable { var affected: Int }
        let body = try JSONEncoder().encode(Body(system: system, token: token))
        return try decode(Affected.self, try await send(route, body: body, expecting: 200)).affected
    }
}
