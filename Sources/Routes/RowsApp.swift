import HTTPServer

/// Placeholder: filled in by the routes work.
public struct RowsSeed: Decodable, Sendable {}

/// Placeholder: filled in by the routes work.
public final class RowsApp: EmulatedSystem {
    public init(seed: RowsSeed, environment: MockEnvironment) {}
    public func register(in router: inout Router) {}
    public func reset() {}
}
