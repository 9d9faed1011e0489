import HTTPServer

/// Placeholder: filled in by the routes work.
public struct MusbookingSeed: Decodable, Sendable {}

/// Placeholder: filled in by the routes work.
public final class Musbooking: EmulatedSystem {
    public init(seed: MusbookingSeed, environment: MockEnvironment) {}
    public func register(in router: inout Router) {}
    public func reset() {}
}
