import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Keeping stubs added over HTTP in the server's `--mappings` folder (WireMock's
/// `POST /__admin/mappings/save`), so the next start loads them.
extension MockAdminClient {
    /// Writes every stub added or changed over HTTP to the server's `--mappings` folder (one file
    /// each, marked `"persistent": true`); they stay through `reset()` and come back at the next
    /// start. A failure when the server has no folder (409) or the folder refuses a file (503):
    /// nothing is saved then.
    public func saveStubs() async throws {
        _ = try await send(.saveStubs, body: Data("{}".utf8), expecting: 200)
    }
}
