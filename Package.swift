// swift-tools-version:6.0
import PackageDescription

// No package dependencies by design: Foundation, Dispatch and the C library (Glibc or Darwin) only.
let package = Package(
    name: "mock-server",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "mock-server", targets: ["MockServer"]),
    ],
    targets: [
        // Transport: sockets, event loops, HTTP/1.1 and WebSocket codecs, router.
        .target(name: "HTTPServer", dependencies: [.target(name: "CEpoll", condition: .when(platforms: [.linux]))]),
        // glibc's <sys/epoll.h> and <sys/eventfd.h>, which the Glibc module does not export (Linux only).
        .systemLibrary(name: "CEpoll", path: "Sources/CEpoll"),
        // The emulated APIs and their in-memory store.
        .target(name: "Routes", dependencies: ["HTTPServer"]),
        // The executable: command line, seed loading, logging, signals.
        .executableTarget(name: "MockServer", dependencies: ["HTTPServer", "Routes"]),
        // Shared by the test targets: a real server on an ephemeral port and raw-socket clients.
        .target(name: "TestSupport", dependencies: ["HTTPServer", "Routes"], path: "Tests/TestSupport"),
        .testTarget(name: "HTTPServerTests", dependencies: ["HTTPServer", "TestSupport"]),
        .testTarget(name: "RoutesTests", dependencies: ["Routes", "HTTPServer", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
