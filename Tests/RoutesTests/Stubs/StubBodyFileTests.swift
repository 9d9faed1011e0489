import Foundation
import HTTPServer
import MockTestSupport
import Routes
import TestSupport
import XCTest

/// `bodyFileName` names a file under `__files` exactly, case (and Unicode form) included, so a
/// stub answers the same on a Mac's case-insensitive volume as on Linux.
final class StubBodyFileTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("stub-body-file-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("mappings"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("__files/users"), withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: folder) }

    private func write(_ text: String, to path: String) throws {
        try Data(text.utf8).write(to: folder.appendingPathComponent(path))
    }

    private func mapping(_ url: String, _ file: String) -> String {
        #"{"request": {"url": "\#(url)"}, "response": {"bodyFileName": "\#(file)"}}"#
    }

    private func server() throws -> TestServer {
        let path = folder.path
        return try TestServer(environment: { env in
            env.stubs = (try? StubLoading.store(root: path, clock: env.clock)) ?? env.stubs
        })
    }

    func testANameInAnotherCaseIsMissingAndTheHintNamesTheFileThatIsThere() throws {
        try write(#"{"ok": true}"#, to: "__files/body.json")
        try write(#"{"id": 1}"#, to: "__files/users/one.json")
        try write("[\(mapping("/exact", "body.json")), \(mapping("/upper", "Body.json")), \(mapping("/folder", "Users/one.json")), \(mapping("/inner", "users/one.json"))]", to: "mappings/all.json")
        let server = try server()
        defer { server.stop() }

        XCTAssertEqual(try server.request("GET", "/exact").text, #"{"ok": true}"#)
        XCTAssertEqual(try server.request("GET", "/inner").text, #"{"id": 1}"#)

        let upper = try server.request("GET", "/upper")
        XCTAssertEqual(upper.status, 500, "a Mac's volume would find body.json; the lookup must not")
        XCTAssertEqual(upper.text, "bodyFileName Body.json is not a readable file in __files\n")
        XCTAssertEqual(upper.header("X-Mock-Hint"), "bodyFileName Body.json: no such file in __files (names are matched exactly, case included; found body.json)")

        let folderCase = try server.request("GET", "/folder")
        XCTAssertEqual(folderCase.status, 500, "every component is matched exactly, folders too")
        XCTAssertEqual(folderCase.header("X-Mock-Hint"), "bodyFileName Users/one.json: no such file in __files (names are matched exactly, case included; found users)")
    }

    func testAFolderOfManyFilesIsSearchedToTheEnd() throws {
        // Enough entries for several reads of the directory, the file looked for among the last;
        // under the address sanitizer (CI) a read past a directory entry's name fails here.
        for i in 0..<1500 { try write("", to: "__files/filler-\(i)-with-a-longer-name.json") }
        try write("last", to: "__files/zz.txt")
        try write("[\(mapping("/last", "zz.txt")), \(mapping("/none", "ZZ.txt"))]", to: "mappings/all.json")
        let server = try server()
        defer { server.stop() }
        for _ in 0..<20 { XCTAssertEqual(try server.request("GET", "/last").text, "last") }
        XCTAssertEqual(try server.request("GET", "/none").header("X-Mock-Hint"), "bodyFileName ZZ.txt: no such file in __files (names are matched exactly, case included; found zz.txt)")
    }

    func testARenameInAFolderListedBeforeIsSeen() throws {
        try write("one", to: "__files/body.json")
        try write("[\(mapping("/lower", "body.json")), \(mapping("/upper", "Body.json"))]", to: "mappings/all.json")
        // An hour old: its listing is kept between requests.
        let files = folder.appendingPathComponent("__files")
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -3600)], ofItemAtPath: files.path)
        let server = try server()
        defer { server.stop() }
        XCTAssertEqual(try server.request("GET", "/lower").text, "one")
        XCTAssertEqual(try server.request("GET", "/upper").status, 500)

        try FileManager.default.moveItem(at: files.appendingPathComponent("body.json"), to: files.appendingPathComponent("Body.json"))
        XCTAssertEqual(try server.request("GET", "/upper").text, "one", "the rename is seen")
        let lower = try server.request("GET", "/lower")
        XCTAssertEqual(lower.status, 500)
        XCTAssertEqual(lower.header("X-Mock-Hint"), "bodyFileName body.json: no such file in __files (names are matched exactly, case included; found Body.json)")
    }

    func testAnotherUnicodeFormIsMissingAndAMissingFileSaysSo() throws {
        // APFS also finds a name in either normalization form; Linux file systems do not.
        try write("composed", to: "__files/caf\u{E9}.txt")
        try write("[\(mapping("/composed", "caf\u{E9}.txt")), \(mapping("/decomposed", "cafe\u{301}.txt")), \(mapping("/absent", "none.txt"))]", to: "mappings/all.json")
        let server = try server()
        defer { server.stop() }

        XCTAssertEqual(try server.request("GET", "/composed").text, "composed")
        XCTAssertEqual(try server.request("GET", "/decomposed").status, 500)
        let absent = try server.request("GET", "/absent")
        XCTAssertEqual(absent.status, 500)
        XCTAssertEqual(absent.header("X-Mock-Hint"), "bodyFileName none.txt: no such file in __files (names are matched exactly, case included)")
    }
}
