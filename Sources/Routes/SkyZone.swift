import HTTPServer

/// Placeholder: filled in by the routes work.
public struct SkyZoneSeed: Decodable, Sendable {}

/// Placeholder: filled in by the routes work.
public final class SkyZone: EmulatedSystem {
    public init(seed: SkyZoneSeed, environment: MockEnvironment) {}
    public func register(in router: inout Router) {}
    public func reset() {}
}
