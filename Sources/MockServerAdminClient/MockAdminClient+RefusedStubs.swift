import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A mapping of the server's `--mappings` folder that its last load (start, reset, `--watch`
/// reload) refused; the rest of the folder loaded.
public struct MockRefusedStub: Sendable, Decodable, Equatable {
    /// The mapping's file.
    public let file: String
    /// The JSON pointer of the field at fault (`/` for the whole file).
    public let pointer: String
    /// Why, and what to do about it.
    public let reason: String
}

extension MockAdminClient {
    /// The folder's refused mappings (`GET /__admin/mappings/refused`): a UI test can fail at once
    /// on a mapping it relies on that did not load, rather than on the 404 it gets later.
    public func refusedStubs() async throws -> [MockRefusedStub] {
        struct List: Decodable { let refused: [MockRefusedStub] }
        return try decode(List.self, try await send(.refusedStubs, expecting: 200)).refused
    }
}
