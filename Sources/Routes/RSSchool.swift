import HTTPServer

/// Placeholder: filled in by the routes work.
public struct RSSchoolSeed: Decodable, Sendable {}

/// Placeholder: filled in by the routes work.
public final class RSSchool: EmulatedSystem {
    public init(seed: RSSchoolSeed, environment: MockEnvironment) {}
    public func register(in router: inout Router) {}
    public func reset() {}
}
