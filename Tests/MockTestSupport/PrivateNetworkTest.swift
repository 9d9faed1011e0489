import TestSupport
import XCTest

extension XCTestCase {
    /// Runs `body` inside a network namespace of the test's own (loopback plus
    /// `PrivateNetwork.address`), in a child process of the test binary that runs this test alone:
    /// threads started inside a namespace stay there, so this process never enters one. Skips where
    /// no namespace can be made (not root, not Linux). `module` is the test target's name.
    package func inPrivateNetwork(module: String, function: String = #function, _ body: () throws -> Void) throws {
        #if os(Linux)
        if PrivateNetwork.isChild {
            do {
                try PrivateNetwork.run(body)
            } catch let unavailable as PrivateNetwork.Unavailable {
                print(PrivateNetwork.unavailableMarker + unavailable.description)
                throw XCTSkip("needs a network namespace of its own (run as root on Linux): \(unavailable)")
            }
            return
        }
        let method = function.hasSuffix("()") ? String(function.dropLast(2)) : function
        switch try PrivateNetwork.runInChild("\(module).\(type(of: self))/\(method)") {
        case .passed:
            return
        case .unavailable(let why):
            throw XCTSkip("needs a network namespace of its own (run as root on Linux): \(why)")
        }
        #else
        throw XCTSkip("needs a Linux network namespace of its own; no test sends traffic to this machine's LAN address")
        #endif
    }
}
