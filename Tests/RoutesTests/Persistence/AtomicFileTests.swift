import Foundation
import XCTest
import TestSupport
import HTTPServer
@testable import Routes
@testable import StatePersistence

/// The file replacement every state write goes through.
final class AtomicFileTests: XCTestCase {
    func testReplaceWritesTheBytesAndLeavesNoTemporaryFile() throws {
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("state.json").path
        try AtomicFile.replace(path, with: Data("first".utf8))
        try AtomicFile.replace(path, with: Data("second, longer".utf8))
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "second, longer")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path), ["state.json"])
    }

    /// A reader racing the writer only ever sees a whole old or a whole new file.
    func testAConcurrentReaderNeverSeesAPartialFile() throws {
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("state.json").path
        let versions = (0..<4).map { Data(repeating: UInt8(ascii: "a") + UInt8($0), count: 256 * 1024) }
        try AtomicFile.replace(path, with: versions[0])
        let done = Locked(false)
        let bad = Locked(0), reads = Locked(0)
        let reader = Thread {
            while !done.withLock({ $0 }) {
                guard let data = FileManager.default.contents(atPath: path) else { bad.withLock { $0 += 1 }; continue }
                if !versions.contains(data) { bad.withLock { $0 += 1 } }
                reads.withLock { $0 += 1 }
            }
        }
        reader.start()
        for i in 1...200 { try AtomicFile.replace(path, with: versions[i % versions.count]) }
        // Let the reader see at least a few files before stopping it.
        waitUntil("the reader to read") { reads.withLock { $0 } >= 5 }
        done.withLock { $0 = true }
        XCTAssertEqual(bad.withLock { $0 }, 0)
    }

    /// A process killed between create and rename leaves its temporary file; the next open removes it.
    func testLeftoverTemporaryFilesAreRemovedAndTheFileIsKept() throws {
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("state.json").path
        try AtomicFile.replace(path, with: Data("whole".utf8))
        for name in [".state.json.123.tmp", ".state.json.456.tmp", "other.tmp"] {
            try Data("half".utf8).write(to: dir.appendingPathComponent(name))
        }
        AtomicFile.removeLeftovers(of: path)
        XCTAssertEqual(Set(try FileManager.default.contentsOfDirectory(atPath: dir.path)), ["state.json", "other.tmp"])
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "whole")
    }

    func testAFileInAMissingDirectoryFailsWithTheReason() throws {
        XCTAssertThrowsError(try AtomicFile.replace("/nonexistent-\(UUID().uuidString)/state.json", with: Data())) { error in
            // The C library's own text for ENOENT (glibc and Darwin's libc word it alike, but say it once).
            XCTAssertTrue("\(error)".contains(String(cString: strerror(ENOENT))), "\(error)")
        }
    }
}
