import Foundation
import HTTPServer
import MockTestSupport
import Routes
import TestSupport
import XCTest

/// `bodyFileName` names a file under `__files` exactly, case included, so a stub answers the same
/// on a Mac's case-insensitive volume as on Linux; either Unicode form of a name finds the file in
/// the other form, as on APFS (Darwin's Foundation writes names decomposed).
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
        return try TestServer(stubs: { clock in
            try? StubLoading.store(root: path, clock: clock)
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

    func testEitherUnicodeFormFindsTheFileWhicheverFormIsOnDiskAndAMissingFileSaysSo() throws {
        // Each form written with open(2) on raw bytes, in a folder of its own (APFS could not hold
        // both in one): NFD as Finder, Xcode and Foundation write on a Mac; NFC as git and Linux tools.
        let decomposed = "cafe\u{301}.txt", composed = "caf\u{E9}.txt"
        try writeRaw("nfd", to: ["nfd", decomposed])
        try writeRaw("nfc", to: ["nfc", composed])
        let mappings = [
            mapping("/nfd/composed", "nfd/" + composed), mapping("/nfd/decomposed", "nfd/" + decomposed),
            mapping("/nfc/composed", "nfc/" + composed), mapping("/nfc/decomposed", "nfc/" + decomposed),
            mapping("/upper", "nfc/Caf\u{E9}.txt"), mapping("/absent", "none.txt"),
        ]
        try write("[\(mappings.joined(separator: ", "))]", to: "mappings/all.json")
        let server = try server()
        defer { server.stop() }

        XCTAssertEqual(try server.request("GET", "/nfd/composed").text, "nfd", "an NFC name finds the NFD file")
        XCTAssertEqual(try server.request("GET", "/nfd/decomposed").text, "nfd")
        XCTAssertEqual(try server.request("GET", "/nfc/composed").text, "nfc")
        XCTAssertEqual(try server.request("GET", "/nfc/decomposed").text, "nfc", "an NFD name finds the NFC file")
        XCTAssertEqual(try server.request("GET", "/upper").status, 500, "case still counts")
        let absent = try server.request("GET", "/absent")
        XCTAssertEqual(absent.status, 500)
        XCTAssertEqual(absent.header("X-Mock-Hint"), "bodyFileName none.txt: no such file in __files (names are matched exactly, case included)")
    }

    /// Creates `__files/<components>` with exactly these UTF-8 bytes as names (no Foundation path
    /// conversion, which decomposes on Darwin).
    private func writeRaw(_ text: String, to components: [String]) throws {
        var path = Array(folder.appendingPathComponent("__files").path.utf8)
        for (index, component) in components.enumerated() {
            path += Array("/".utf8) + Array(component.utf8)
            let cPath = path.map { CChar(bitPattern: $0) } + [0]
            if index < components.count - 1 {
                XCTAssertEqual(mkdir(cPath, 0o755), 0, "mkdir errno \(errno)")
            } else {
                let fd = open(cPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
                XCTAssertGreaterThanOrEqual(fd, 0, "open errno \(errno)")
                let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
                try handle.write(contentsOf: Data(text.utf8))
                try handle.close()
            }
        }
    }

    /// WireMock renders a templated mapping's body file too; one this server cannot render is a
    /// 500 saying so, never the file's text as if rendered (stubs-compat B2).
    func testATemplatedMappingsBodyFileIsRenderedOrRefusedAtServeTime() throws {
        try write("url={{request.url}}", to: "__files/t.txt")
        try write("{{stringFormat 1}}", to: "__files/block.txt")
        let templated = #", "transformers": ["response-template"]}}"#
        try write("""
            [{"request": {"url": "/file"}, "response": {"bodyFileName": "t.txt"\(templated),
             {"request": {"url": "/plain"}, "response": {"bodyFileName": "t.txt"}},
             {"request": {"url": "/block"}, "response": {"bodyFileName": "block.txt"\(templated)]
            """, to: "mappings/all.json")
        let server = try server()
        defer { server.stop() }
        XCTAssertEqual(try server.request("GET", "/file").text, "url=/file")
        XCTAssertEqual(try server.request("GET", "/plain").text, "url={{request.url}}", "not templated: sent as it is")
        let block = try server.request("GET", "/block")
        XCTAssertEqual(block.status, 500)
        XCTAssertTrue(block.header("X-Mock-Hint")?.contains("bodyFileName block.txt is a template this server cannot render") ?? false,
                      block.header("X-Mock-Hint") ?? "no hint")
    }

    /// A nameless mapping without an id is named in the log by its file, which stays the same
    /// from one reload to the next; the made id would not.
    func testANamelessStubFromTheFolderIsLoggedByItsFile() throws {
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("mappings/sub"), withIntermediateDirectories: true)
        try write(#"{"request": {"url": "/nameless"}, "response": {"body": "n"}}"#, to: "mappings/sub/flags.json")
        let lines = Locked<[String]>([])
        let logger = Logger(level: .info) { line in lines.withLock { $0.append(line) } }
        let path = folder.path
        let server = try TestServer(logger: logger, configure: { $0.eventLoops = 1 }, stubs: { clock in
            try? StubLoading.store(root: path, clock: clock)
        })
        defer { server.stop() }
        XCTAssertEqual(try server.request("GET", "/nameless").text, "n")
        XCTAssertEqual(try server.request("GET", "/rows/1").status, 403, "a later line: the first is written by now")
        logger.flush()
        let log = lines.withLock { $0.joined(separator: "\n") }
        XCTAssertTrue(log.contains("GET /nameless 200") && log.contains("stubs/sub/flags.json"), log)
    }

    /// `GET /__admin/files`: every file under `__files`, at any depth, sorted full paths.
    func testTheAdminFilesListingWalksEveryLevel() throws {
        try write("a", to: "__files/body.json")
        try write("b", to: "__files/users/one.json")
        try write("[]", to: "mappings/none.json")
        let server = try server()
        defer { server.stop() }
        let root = folder.appendingPathComponent("__files").path
        let listed = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(try server.request("GET", "/__admin/files").text.utf8)) as? [String])
        XCTAssertEqual(listed, [root + "/body.json", root + "/users/one.json"])
    }
}
