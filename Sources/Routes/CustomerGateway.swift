import HTTPServer

/// Placeholder: filled in by the routes work.
public struct CustomerGatewaySeed: Decodable, Sendable {}

/// Placeholder: filled in by the routes work.
public final class CustomerGateway: EmulatedSystem {
    public init(seed: CustomerGatewaySeed, environment: MockEnvironment) {}
    public func register(in router: inout Router) {}
    public func reset() {}
}
