import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Stub mappings (`/__admin/`, WireMock's admin API): add from a Swift value, a JSON text or a
/// file in the test bundle; list, remove, scenarios; count and find journaled requests.
extension MockAdminClient {
    /// Adds a stub built in Swift; returns it with its id.
    @discardableResult
    public func addStub(_ stub: MockStubDefinition) async throws -> MockStub {
        try await addStub(json: try JSONEncoder().encode(stub))
    }

    /// Adds one mapping given as WireMock JSON; returns it with its id. A refused mapping fails
    /// with the server's reason (the field named).
    @discardableResult
    public func addStub(json: Data) async throws -> MockStub {
        try decode(MockStub.self, try await send(.addStub, body: json, expecting: 201))
    }

    /// Adds the mappings of a WireMock JSON file (one mapping, an array, or `{"mappings": [...]}`),
    /// all or none: `Bundle.module.url(forResource: "flags", withExtension: "json")` in a test target.
    public func addStubs(contentsOf file: URL) async throws {
        let data = try Data(contentsOf: file)
        let body: Data
        switch try JSONSerialization.jsonObject(with: data) {
        case let object as [String: Any] where object["mappings"] != nil: body = data
        case let array as [Any]: body = try JSONSerialization.data(withJSONObject: ["mappings": array])
        case let object as [String: Any]: body = try JSONSerialization.data(withJSONObject: ["mappings": [object]])
        default: throw Failure(description: "\(file.lastPathComponent): not a mapping, an array of them or {\"mappings\": [...]}")
        }
        _ = try await send(.importStubs, body: body, expecting: 200)
    }

    /// Every loaded stub, newest first.
    public func stubs() async throws -> [MockStub] {
        struct List: Decodable { let mappings: [MockStub] }
        return try decode(List.self, try await send(.stubs, expecting: 200)).mappings
    }

    /// Removes one stub (a failure if there is none with that id).
    public func removeStub(id: String) async throws {
        _ = try await send(.removeStub, id, expecting: 200)
    }

    /// Removes every stub, those from `--mappings` too (until the next `/__admin/reset`).
    public func removeAllStubs() async throws {
        _ = try await send(.removeAllStubs, expecting: 200)
    }

    /// Every scenario and its state.
    public func stubScenarios() async throws -> [MockStubScenario] {
        struct List: Decodable { let scenarios: [MockStubScenario] }
        return try decode(List.self, try await send(.stubScenarios, expecting: 200)).scenarios
    }

    /// Every scenario back to `Started`.
    public func resetStubScenarios() async throws {
        _ = try await send(.resetStubScenarios, body: Data("{}".utf8), expecting: 200)
    }

    /// How many journaled requests match a WireMock request pattern.
    public func countRequests(matching pattern: MockRequestPattern) async throws -> Int {
        struct Count: Decodable { let count: Int }
        let body = try JSONEncoder().encode(pattern)
        return try decode(Count.self, try await send(.countMatchingRequests, body: body, expecting: 200)).count
    }

    /// The journaled requests that match a WireMock request pattern, oldest first.
    public func findRequests(matching pattern: MockRequestPattern) async throws -> [MockLoggedRequest] {
        struct Found: Decodable { let requests: [MockLoggedRequest] }
        let body = try JSONEncoder().encode(pattern)
        return try decode(Found.self, try await send(.findMatchingRequests, body: body, expecting: 200)).requests
    }
}
