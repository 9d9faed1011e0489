import Foundation
@testable import Stubs
import XCTest

/// `__files` bytes are kept while the file is the one read, and read again once it changes.
final class StubFileCacheTests: XCTestCase {
    private var root = ""

    override func setUpWithError() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("stub-file-cache-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: root) }

    private func write(_ text: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: root + "/body.json"))
    }

    private var later: Int { Int(Date().timeIntervalSince1970) + 10 }

    func testAFileJustWrittenIsNotKept() throws {
        try write("fresh")
        guard case .success(let bytes) = StubBodyFile.read("body.json", in: root) else { return XCTFail("not read") }
        XCTAssertEqual(bytes, Array("fresh".utf8))
        XCTAssertNil(StubFileCache.lookup("body.json", in: root), "changed within two seconds: its time cannot tell a second change")
    }

    func testAKeptFileIsServedUntilItChangesOrGoes() throws {
        try write("first")
        let path = root + "/body.json"
        let before = try XCTUnwrap(StubFileCache.Identity.of(path))
        StubFileCache.keep("body.json", in: root, path: path, before: before, bytes: Array("first".utf8), now: later)
        XCTAssertEqual(StubFileCache.lookup("body.json", in: root), Array("first".utf8))
        guard case .success(let served) = StubBodyFile.read("body.json", in: root) else { return XCTFail("not read") }
        XCTAssertEqual(served, Array("first".utf8))
        XCTAssertNil(StubFileCache.lookup("body.json", in: "/elsewhere"), "kept per root")

        try write("second, longer")
        XCTAssertNil(StubFileCache.lookup("body.json", in: root), "another size is another file")
        guard case .success(let again) = StubBodyFile.read("body.json", in: root) else { return XCTFail("not read") }
        XCTAssertEqual(again, Array("second, longer".utf8))

        let now = try XCTUnwrap(StubFileCache.Identity.of(path))
        StubFileCache.keep("body.json", in: root, path: path, before: now, bytes: again, now: later)
        try FileManager.default.removeItem(atPath: path)
        XCTAssertNil(StubFileCache.lookup("body.json", in: root), "a removed file is not served from memory")
        guard case .failure = StubBodyFile.read("body.json", in: root) else { return XCTFail("a removed file was served") }
    }

    func testWhatWasReadUnderAnotherIdentityOrSizeIsNotKept() throws {
        try write("one")
        let path = root + "/body.json"
        let before = try XCTUnwrap(StubFileCache.Identity.of(path))
        StubFileCache.keep("body.json", in: root, path: path, before: before, bytes: Array("on".utf8), now: later)
        XCTAssertNil(StubFileCache.lookup("body.json", in: root), "bytes of another length than the file's are not kept")
        try write("other")
        StubFileCache.keep("body.json", in: root, path: path, before: before, bytes: Array("one".utf8), now: later)
        XCTAssertNil(StubFileCache.lookup("body.json", in: root), "the file changed while it was read")
        XCTAssertNil(StubFileCache.Identity.of(root), "a folder is not a file to keep")
    }
}
