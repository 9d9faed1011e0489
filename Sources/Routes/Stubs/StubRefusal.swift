import HTTPServer
import EmulationKit
import MockAdminWire

/// A mapping (or a whole file) of the `--mappings` folder that was not loaded: the file, the JSON
/// pointer of the field at fault, and why, with what to do (the admin client's type). The rest of
/// the folder loads; every refusal is logged at start and listed by `GET /__admin/mappings/refused`
/// ("refused, not ignored").
package typealias StubRefusal = MockRefusedStub

extension MockRefusedStub {
    /// `{"file", "pointer", "reason"}`, as `GET /__admin/mappings/refused` lists it.
    package var json: JSONValue { (try? JSONValue(encoding: self)) ?? .null }

    /// `file: pointer: reason`, one line for the log and for `--mappings-strict`'s error.
    package var line: String { "\(file): \(pointer): \(reason)" }
}

/// What loading the folder had to say besides its mappings: the refused ones, and warnings about
/// ones it loaded (an id two files give, a `bodyFileName` with no file in `__files`).
package struct StubLoadReport: Sendable, Equatable {
    package var refused: [StubRefusal] = []
    package var warnings: [String] = []

    /// A report of these refusals and warnings (none by default).
    package init(refused: [StubRefusal] = [], warnings: [String] = []) {
        self.refused = refused
        self.warnings = warnings
    }

    /// The log lines: one per refused mapping, with what to do, then the warnings. `reload`: a
    /// `--watch` reload or a reset, where the refused mapping's file keeps what it held before.
    package func lines(reload: Bool = false) -> [String] {
        let advice = reload
            ? "its file keeps the mappings it had; fix it and save again (GET /__admin/mappings/refused lists what is refused)"
            : "the other mappings load: fix or remove it, then save it under --watch or POST /__admin/mappings/reset"
        return refused.map { "mapping refused: \($0.line) (\(advice))" } + warnings
    }
}

/// The report of the folder's last load (start, reset, `--watch` reload), for `GET /__admin/mappings/refused`.
package final class StubLoadRecord: Sendable {
    private let report = Locked(StubLoadReport())

    /// No load yet: nothing refused.
    package init() {}

    /// The last load's report.
    package var current: StubLoadReport { report.withLock { $0 } }

    func replace(with next: StubLoadReport) { report.withLock { $0 = next } }
}
