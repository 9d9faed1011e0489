import Foundation
import TestSupport
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// The built `mock-server` executable run as a child process: its flags, banner, exit codes and signals.
package final class TestExecutable {
    package let process: Process
    /// Standard output (the banner) and standard error (the log).
    package let output = Pipe(), errors = Pipe()
    private let exited = DispatchSemaphore(value: 0)

    /// The built executable, in SwiftPM's bin path (the build folder of this very test run: debug,
    /// release or `--scratch-path`), never a fixed `.build/debug` that may hold a stale binary.
    package static var binary: URL {
        get throws {
            let directory = try productsDirectory
            let candidate = directory.appendingPathComponent("mock-server")
            guard FileManager.default.isExecutableFile(atPath: candidate.path) else {
                throw TestClientError("mock-server executable not found in \(directory.path) (run `swift build` first)")
            }
            return candidate
        }
    }

    /// Where SwiftPM (or Xcode) put this build's products. On Darwin the tests run inside Xcode's
    /// `xctest` tool, so `CommandLine.arguments[0]` is that tool: the `.xctest` bundle's folder is
    /// the place (SwiftPM's own executable-test template does the same). On Linux the test bundle
    /// is itself the executable. Failing both, `swift build --show-bin-path` in the checkout.
    package static var productsDirectory: URL {
        get throws {
            #if canImport(Darwin)
            for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
                return bundle.bundleURL.deletingLastPathComponent()
            }
            #endif
            let runner = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            if runner.lastPathComponent.hasSuffix(".xctest") { return runner.deletingLastPathComponent() }
            return try showBinPath()
        }
    }

    private static func showBinPath() throws -> URL {
        let swift = Process()
        swift.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        swift.arguments = ["swift", "build", "--show-bin-path"]
        swift.currentDirectoryURL = repository
        let out = Pipe()
        swift.standardOutput = out
        swift.standardError = FileHandle.nullDevice
        try swift.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        swift.waitUntilExit()
        let path = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard swift.terminationStatus == 0, !path.isEmpty else { throw TestClientError("`swift build --show-bin-path` failed") }
        return URL(fileURLWithPath: path)
    }

    /// The checkout (where `seed.json` is): the default working directory.
    package static var repository: URL { URL(fileURLWithPath: TestServer.repositorySeedPath).deletingLastPathComponent() }

    /// Starts `mock-server arguments` in `directory` (the checkout by default), with `environment`
    /// added to the test's own. `shell`, when given, runs first in `/bin/sh`, which then execs the
    /// server (e.g. `ulimit -n 200`).
    package init(_ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:], shell: String? = nil) throws {
        process = Process()
        if let shell {
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", shell + #" && exec "$0" "$@""#, try Self.binary.path] + arguments
        } else {
            process.executableURL = try Self.binary
            process.arguments = arguments
        }
        process.currentDirectoryURL = directory ?? Self.repository
        var environment = environment
        // Sanitizer runs (.ci/run): the XCTest runner checks no leaks (swift-corelibs-xctest keeps
        // every test case, and all it holds, alive to the end), but the server it launches does.
        if let childOptions = ProcessInfo.processInfo.environment["MOCK_CHILD_ASAN_OPTIONS"] {
            environment["ASAN_OPTIONS"] = childOptions
        }
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        process.standardOutput = output
        process.standardError = errors
        process.terminationHandler = { [exited] _ in exited.signal() }
        try process.run()
    }

    /// Standard output up to the banner's last line ("… Ctrl-C stops it."); throws if the output
    /// ends first or `timeout` seconds pass (the server is then killed), so a broken start fails, never hangs.
    package func banner(timeout: TimeInterval = 20) throws -> String {
        let fd = output.fileHandleForReading.fileDescriptor
        let deadline = Date(timeIntervalSinceNow: timeout)
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !String(decoding: bytes, as: UTF8.self).contains("Ctrl-C stops it.") {
            var ready = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let wait = Int32(max(0, deadline.timeIntervalSinceNow) * 1000)
            let polled = poll(&ready, 1, wait)
            if polled < 0 && errno == EINTR { continue }
            guard polled > 0 else {
                stopNow()
                throw TestClientError("no whole banner within \(timeout) s; output so far: \(String(decoding: bytes, as: UTF8.self))")
            }
            let n = read(fd, &buffer, buffer.count)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw TestClientError("no whole banner; output so far: \(String(decoding: bytes, as: UTF8.self))") }
            bytes += buffer[0..<n]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The port of the banner's `http://127.0.0.1:PORT` URL, read from standard output.
    package func bannerPort(timeout: TimeInterval = 20) throws -> Int {
        try Self.port(inBanner: banner(timeout: timeout))
    }

    /// The port of the first `http://127.0.0.1:PORT` URL in a banner.
    package static func port(inBanner text: String) throws -> Int {
        guard let range = text.range(of: #"http://127\.0\.0\.1:(\d+)"#, options: .regularExpression),
              let port = Int(text[range].split(separator: ":").last ?? "") else {
            throw TestClientError("banner without a URL: \(text)")
        }
        return port
    }

    /// All of standard output, once the process closes it (e.g. after `--help`).
    package func readOutput() -> String {
        String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    }

    package func signal(_ number: Int32) {
        kill(process.processIdentifier, number)
    }

    /// Waits for the exit, at most `timeout` seconds (then kills the server and throws); the exit status.
    package func exitStatus(timeout: TimeInterval = 20) throws -> Int32 {
        guard exited.wait(timeout: .now() + timeout) == .success else {
            stopNow()
            throw TestClientError("mock-server still running \(timeout) s later")
        }
        exited.signal() // a later call returns at once
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// Waits for the exit as `exitStatus` does; the exit status and all of standard error.
    package func finish(timeout: TimeInterval = 20) throws -> (status: Int32, stderr: String) {
        let status = try exitStatus(timeout: timeout)
        return (status, String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
    }

    /// SIGKILL, for tests that check the banner, not the shutdown.
    package func stopNow() {
        if process.isRunning { signal(SIGKILL) }
        process.waitUntilExit()
    }
}
