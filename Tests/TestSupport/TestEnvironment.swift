import Foundation
import HTTPServer

extension ServerConfiguration {
    /// Applies `MOCK_POLLER` (CI runs the wire and gateway tests again with `poll`); a value that
    /// names no poller, or one this system lacks, fails the test instead of silently testing the default.
    package mutating func applyTestEnvironment() throws {
        guard let name = ProcessInfo.processInfo.environment["MOCK_POLLER"], !name.isEmpty else { return }
        guard let kind = PollerKind(rawValue: name), kind.isAvailable else {
            throw TestClientError("MOCK_POLLER=\(name) names no poller this system has")
        }
        poller = kind
    }
}
