import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension MockAdminClient {
    /// The folder's refused mappings (`GET /__admin/mappings/refused`): a UI test can fail at once
    /// on a mapping it relies on that did not load, rather than on the 404 it gets later.
    public func refusedStubs() async throws -> [MockRefusedStub] {
        struct List: Decodable { let refused: [MockRefusedStub] }
        return try decode(List.self, try await send(.refusedStubs, expecting: 200)).refused
    }
}
