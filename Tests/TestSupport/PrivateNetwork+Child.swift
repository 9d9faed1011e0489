#if os(Linux)
import Foundation

extension PrivateNetwork {
    /// Set in the child process that runs one test inside the namespace.
    static let childVariable = "MOCK_TEST_PRIVATE_NETWORK_CHILD"
    /// What the child prints when it cannot make the namespace, so the parent can skip.
    package static let unavailableMarker = "private-network-unavailable:"

    /// Whether this process is the child `runInChild` started.
    package static var isChild: Bool { ProcessInfo.processInfo.environment[childVariable] == "1" }

    /// How the test went in the child.
    package enum ChildOutcome {
        case passed
        case unavailable(String)
    }

    /// The child failed: its output says why.
    struct ChildFailed: Error, CustomStringConvertible {
        package let description: String
    }

    /// Runs the test `identifier` ("Module.Class/method") again in a child process of this test
    /// binary, where it enters the namespace. A thread that joins the namespace can start others
    /// there (a Dispatch worker, a Foundation helper) that outlive the test; in this process they
    /// would later open sockets to loopback in the wrong namespace and fail unrelated tests.
    package static func runInChild(_ identifier: String) throws -> ChildOutcome {
        let binary = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = [identifier]
        var environment = ProcessInfo.processInfo.environment
        environment[childVariable] = "1"
        process.environment = environment
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        if let line = output.split(separator: "\n").first(where: { $0.hasPrefix(unavailableMarker) }) {
            return .unavailable(String(line.dropFirst(unavailableMarker.count)))
        }
        guard process.terminationStatus == 0, output.contains("Executed 1 test, with 0 failures") else {
            throw ChildFailed(description: "\(identifier) in a child process (exit \(process.terminationStatus)):\n\(output)")
        }
        return .passed
    }
}
#endif
