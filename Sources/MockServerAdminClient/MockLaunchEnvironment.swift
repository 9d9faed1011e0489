import Foundation

/// The launch environment that points an app under UI test at a mock server, and the app's side
/// of it: the test merges `environment(baseURL:)` into `XCUIApplication.launchEnvironment`, the
/// app reads `baseURL()` at start (nil in a normal launch, so release builds never see it).
public enum MockLaunchEnvironment {
    /// The variable the base URL travels in unless another key is given.
    public static let defaultKey = "API_BASE_URL"

    /// `[key: baseURL]`, e.g. `app.launchEnvironment.merge(…) { $1 }`.
    public static func environment(baseURL: URL, key: String = defaultKey) -> [String: String] {
        [key: baseURL.absoluteString]
    }

    /// The base URL the app was launched with, read in the app; nil when the variable is missing
    /// or is not an absolute URL.
    public static func baseURL(in environment: [String: String] = ProcessInfo.processInfo.environment,
                               key: String = defaultKey) -> URL? {
        guard let text = environment[key], let url = URL(string: text), url.scheme != nil, url.host != nil else { return nil }
        return url
    }
}

extension MockAdminClient {
    /// The launch environment that points an app at this client's server (see `MockLaunchEnvironment`).
    public func launchEnvironment(key: String = MockLaunchEnvironment.defaultKey) -> [String: String] {
        MockLaunchEnvironment.environment(baseURL: baseURL, key: key)
    }
}
