import HTTPServer

/// What `/__mock/health` reports besides "ok": problems a part of the mock raised (the state
/// file cannot be written), each under its own name, gone once the part recovers.
package final class HealthStatus: Sendable {
    private let problems = Locked<[String: String]>([:])

    package init() {}

    /// Raises (`problem` set) or clears (nil) the problem named `name`.
    package func set(_ name: String, _ problem: String?) {
        problems.withLock { $0[name] = problem }
    }

    /// `{"status": "ok"}`, or `{"status": "degraded", "problems": {name: text}}`.
    package var json: JSONValue {
        let current = problems.withLock { $0 }
        guard !current.isEmpty else { return ["status": "ok"] }
        let listed = current.sorted { $0.key < $1.key }.map { (key: $0.key, value: JSONValue.string($0.value)) }
        return ["status": "degraded", "problems": .object(listed)]
    }
}
