import Foundation
import Routes
import XCTest

/// A system is one folder: outside its folder and the registry, no source file's code names it
/// (comments aside), so a sixth system touches its folder, its seed section and one registry line.
final class SystemFolderTests: XCTestCase {
    func testNoSourceOutsideASystemsFolderNamesASystem() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources")
        let files = try XCTUnwrap(FileManager.default.enumerator(atPath: sources.path)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") }
        // Each system's folder is the one holding `<Type>.swift`.
        var folders: [String: String] = [:]
        for type in SystemRegistry.types {
            let typeName = String(describing: type)
            let home = try XCTUnwrap(files.first { ($0 as NSString).lastPathComponent == "\(typeName).swift" }, "no \(typeName).swift")
            folders[typeName] = (home as NSString).deletingLastPathComponent + "/"
        }
        XCTAssertEqual(Set(folders.values).count, SystemRegistry.types.count, "one folder per system")
        // The registry, and the seed compiled into the binary (data, generated from seed.json).
        let exempt: Set<String> = ["SystemRegistry.swift", "BundledSeed.swift"]
        let words = SystemRegistry.types.flatMap { [String(describing: $0), $0.name, $0.seedKey] }
        var found: [String] = []
        for file in files where !exempt.contains((file as NSString).lastPathComponent)
            && !folders.values.contains(where: { file.hasPrefix($0) }) {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let code = line.trimmingCharacters(in: .whitespaces)
                if code.hasPrefix("//") { continue }
                for word in words where code.range(of: "\\b\(word)\\b", options: [.regularExpression, .caseInsensitive]) != nil {
                    found.append("\(file):\(number + 1): \(word)")
                }
            }
        }
        XCTAssertEqual(found, [], "name a system outside its folder")
    }

    /// The routes speak one JSON model (`JSONValue`): no Foundation object trees in their code.
    func testTheRoutesUseOneJSONModel() throws {
        let routes = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/Routes")
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
