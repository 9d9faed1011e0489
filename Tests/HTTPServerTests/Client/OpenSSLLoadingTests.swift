@testable import HTTPServer
import XCTest

/// Loading OpenSSL at run time: a missing library and one that is not OpenSSL 3 are errors that
/// name what to install, never a crash; the system's libssl.so.3 loads (CI has it).
final class OpenSSLLoadingTests: XCTestCase {
    func testAMissingLibraryNamesThePackage() {
        guard case .failure(let why) = OpenSSL.load("libssl-not-here.so.3") else { return XCTFail("a missing library loaded") }
        XCTAssertTrue(why.reason.contains("libssl-not-here.so.3") && why.reason.contains("apt-get install libssl3"), why.reason)
    }

    func testALibraryThatIsNotOpenSSLNamesTheFirstMissingFunction() throws {
        #if os(Linux)
        guard case .failure(let why) = OpenSSL.load("libc.so.6") else { return XCTFail("libc passed for OpenSSL") }
        XCTAssertTrue(why.reason.contains("libc.so.6 is not OpenSSL 3: it lacks TLS_client_method"), why.reason)
        #else
        throw XCTSkip("OpenSSL is loaded on Linux only")
        #endif
    }

    func testTheSystemsOpenSSL3Loads() throws {
        #if os(Linux)
        if case .failure(let why) = OpenSSL.load("libssl.so.3") { XCTFail(why.reason) }
        #else
        throw XCTSkip("OpenSSL is loaded on Linux only")
        #endif
    }
}
