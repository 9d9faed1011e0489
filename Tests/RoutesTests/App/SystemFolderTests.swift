import Foundation
import Routes
import XCTest

/// What the compiler cannot check about the routes' sources. (That a system is one target that
/// imports only EmulationKit and HTTPServer, and that only Routes names the systems, the
/// package's target graph checks: `swift build --target <system>` in .ci/run.)
final class SystemFolderTests: XCTestCase {
    /// The routes speak one JSON model (`JSONValue`): no Foundation object trees in their code.
    func testTheRoutesUseOneJSONModel() throws {
        let routes = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Sources/Routes")
        let files = try XCTUnwrap(FileManager.default.enumerator(atPath: routes.path)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") }
        var found: [String] = []
        for file in files {
            let text = try String(contentsOf: routes.appendingPathComponent(file), encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
                for word in ["JSONSerialization", "[String: Any]", "NSNull"] where line.contains(word) {
                    found.append("\(file):\(number + 1): \(word)")
                }
            }
        }
        XCTAssertEqual(found, [])
    }
}
