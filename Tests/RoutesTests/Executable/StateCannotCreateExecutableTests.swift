import Foundation
import XCTest
import MockTestSupport
import TestSupport

/// `--state` where nothing can be created (sysexits' EX_CANTCREAT, 73), told apart from a state
/// file that cannot be read (65): the data is fine, the place is not writable.
final class StateCannotCreateExecutableTests: TemporaryDirectoryTestCase {
    func testAStateFileInAMissingDirectoryExits73NamingIt() throws {
        let path = dir.appendingPathComponent("missing/state.json").path
        let (status, message) = try TestExecutable(["--port", "0", "--state", path]).finish()
        XCTAssertEqual(status, 73, message)
        XCTAssertTrue(message.contains("cannot create the lock file") && message.contains("missing"), message)
        XCTAssertTrue(message.contains("must exist and be writable"), message)
    }

    /// A real read-only file system, mounted in a mount namespace of the test's own (Linux, with
    /// the privilege to mount; skipped elsewhere).
    func testAReadOnlyFileSystemExits73() throws {
        #if os(Linux)
        let mountPoint = dir.appendingPathComponent("ro").path
        try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: true)
        // The shell replaces itself with unshare, whose shell mounts, then execs the server with its arguments.
        let shell = #"exec unshare -m sh -c 'mount -t tmpfs -o ro none "$1" || exit 99; shift; exec "$0" "$@"' "$0" "\#(mountPoint)" "$@""#
        let (status, message) = try TestExecutable(["--port", "0", "--state", mountPoint + "/state.json"], shell: shell).finish()
        if status == 99 || status == 127 || status == 1 && message.contains("unshare") {
            throw XCTSkip("cannot mount a read-only file system here (status \(status)): \(message)")
        }
        XCTAssertEqual(status, 73, message)
        XCTAssertTrue(message.contains("Read-only file system"), message)
        #else
        throw XCTSkip("mount namespaces are Linux's")
        #endif
    }
}
