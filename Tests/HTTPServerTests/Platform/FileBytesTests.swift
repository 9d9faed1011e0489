import Foundation
import XCTest
@testable import HTTPServer

/// FileBytes reads whole files without Foundation (whose reader leaks on empty files).
final class FileBytesTests: XCTestCase {
    private var dir = ""

    override func setUpWithError() throws {
        dir = NSTemporaryDirectory() + "filebytes-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: dir) }

    func testAnEmptyFileIsNoBytesAndAMissingOneIsNil() throws {
        let empty = dir + "/empty"
        XCTAssertTrue(FileManager.default.createFile(atPath: empty, contents: Data()))
        XCTAssertEqual(FileBytes.read(empty), [])
        XCTAssertNil(FileBytes.read(dir + "/missing"))
    }

    func testAFileIsReadWhole() throws {
        let path = dir + "/data"
        let content = (0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(content)))
        XCTAssertEqual(FileBytes.read(path), content)
    }
}
