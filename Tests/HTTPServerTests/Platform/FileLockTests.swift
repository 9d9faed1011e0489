import Foundation
import XCTest
@testable import HTTPServer

/// `FileLock`: a second open of the lock file is refused as "held" (flock's EWOULDBLOCK, the same
/// on Linux and Darwin); any other flock errno is a failure that names it, not a phantom holder.
final class FileLockTests: XCTestCase {
    private var dir = ""

    override func setUpWithError() throws {
        dir = NSTemporaryDirectory() + "filelock-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    func testASecondAcquireIsHeldAndNamesThisProcess() throws {
        let file = dir + "/state.json"
        let first = try FileLock.acquire(for: file)
        defer { first.release() }
        XCTAssertThrowsError(try FileLock.acquire(for: file)) { error in
            guard let held = error as? FileLock.Held else { return XCTFail("not Held: \(error)") }
            XCTAssertEqual(held.holder, "\(Sys.processID())")
        }
    }

    func testOnlyEWOULDBLOCKMeansAnotherHolder() {
        let path = dir + "/.state.json.lock"
        XCTAssertTrue(FileLock.refusal(errno: EWOULDBLOCK, path: path, holder: "42\n") is FileLock.Held)
        for error in [ENOLCK, EINTR, EBADF, EINVAL, EOPNOTSUPP] {
            let refusal = FileLock.refusal(errno: error, path: path, holder: "")
            XCTAssertFalse(refusal is FileLock.Held, "errno \(error) is not another holder")
            let text = "\(refusal)"
            XCTAssertTrue(text.contains("errno \(error)") && text.contains(path), text)
            XCTAssertFalse(text.contains("locked by"), text)
        }
    }
}
