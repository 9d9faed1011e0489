// swift-tools-version:6.0
import PackageDescription

// No package dependencies by design: Foundation, Dispatch and the C library (Glibc or Darwin) only.
let package = Package(
    name: "mock-server",
    platforms: [.macOS(.v15), .iOS(.v16)],
    products: [
        .executable(name: "mock-server", targets: ["MockServer"]),
        // The whole mock in-process, for a test target: start on port 0, base URL, outbox, reset, stop.
        .library(name: "MockServerKit", targets: ["MockServerKit"]),
        // A URLSession client of /__mock/ for UI tests in another process; does not link the server.
        .library(name: "MockServerAdminClient", targets: ["MockServerAdminClient"]),
    ],
    targets: [
        // Transport: sockets, event loops, HTTP/1.1 and WebSocket codecs, router.
        .target(name: "HTTPServer", dependencies: [.target(name: "CEpoll", condition: .when(platforms: [.linux]))]),
        // glibc's <sys/epoll.h> and <sys/eventfd.h>, which the Glibc module does not export (Linux only).
        .systemLibrary(name: "CEpoll", path: "Sources/CEpoll"),
        // The emulated APIs and their in-memory store.
        .target(name: "Routes", dependencies: ["HTTPServer", "Stubs"], exclude: ["Stubs"]),
        // WireMock-format stub mappings for every other endpoint: matching, answers, /__admin.
        .target(name: "Stubs", dependencies: ["HTTPServer"], path: "Sources/Routes/Stubs"),
        // The mock as a library: app construction, bundled seed, in-process start and stop.
        .target(name: "MockServerKit", dependencies: ["HTTPServer", "Routes", "MockServerAdminClient"]),
        // The admin API client (Foundation/URLSession only).
        .target(name: "MockServerAdminClient"),
        // The executable: command line, banner, signals, state file; the app and server come from Routes and HTTPServer.
        // Not MockServerKit: its admin client would link FoundationNetworking (libcurl, TLS) into the server.
        .executableTarget(name: "MockServer", dependencies: ["HTTPServer", "Routes"]),
        // Shared by the test targets: a real server on an ephemeral port and raw-socket clients.
        .target(name: "TestSupport", dependencies: ["HTTPServer"], path: "Tests/TestSupport"),
        // The whole mock on a port (TestServer) and the built executable, for the tests above the transport.
        .target(name: "MockTestSupport", dependencies: ["HTTPServer", "Routes", "TestSupport"], path: "Tests/MockTestSupport"),
        .testTarget(name: "HTTPServerTests", dependencies: ["HTTPServer", "TestSupport"]),
        // MockServer: the executable tests run the built binary, and Xcode builds it first only for a
        // test target that depends on it (SwiftPM's swift test builds every product anyway).
        .testTarget(name: "RoutesTests", dependencies: ["Routes", "HTTPServer", "TestSupport", "MockTestSupport", "MockServerKit", "MockServer"],
                    // Files older servers wrote, read by the tests from the source tree.
                    exclude: ["Fixtures"]),
        .testTarget(name: "MockServerKitTests", dependencies: ["MockServerKit", "MockServerAdminClient", "TestSupport", "MockTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
