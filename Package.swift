// swift-tools-version:6.0
import PackageDescription

// No package dependencies by design: Foundation, Dispatch and the C library (Glibc or Darwin) only.

/// The emulated systems' targets (each under Sources/Routes/<folder>); only Routes imports them.
let systemTargets: [Target.Dependency] = ["RowsSystem", "GatewaySystem", "SkyZoneSystem", "MusbookingSystem", "RSSchoolSystem"]
/// Everything the mock's tests may look inside.
let mockTargets: [Target.Dependency] = ["Routes", "EmulationKit", "MockControl", "StatePersistence", "Stubs"] + systemTargets

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
        // Sources/Routes holds the mock's targets. The rules (README, "Layout"): a system imports only
        // EmulationKit and HTTPServer; MockControl and StatePersistence import only those two and learn
        // the systems and the stubs from values; Routes alone imports the systems and names the registry.
        // The system contract and what every system shares: environment, settings, clock, tokens,
        // account overlays, outbox, body readers, OpenAPI building blocks, persistence cells.
        .target(name: "EmulationKit", dependencies: ["HTTPServer", "MockAdminWire"], path: "Sources/Routes/Kit"),
        // One target per emulated system.
        .target(name: "RowsSystem", dependencies: ["EmulationKit", "HTTPServer"], path: "Sources/Routes/Rows"),
        .target(name: "GatewaySystem", dependencies: ["EmulationKit", "HTTPServer"], path: "Sources/Routes/CustomerGateway"),
        .target(name: "SkyZoneSystem", dependencies: ["EmulationKit", "HTTPServer"], path: "Sources/Routes/SkyZone"),
        .target(name: "MusbookingSystem", dependencies: ["EmulationKit", "HTTPServer"], path: "Sources/Routes/Musbooking"),
        .target(name: "RSSchoolSystem", dependencies: ["EmulationKit", "HTTPServer"], path: "Sources/Routes/RSSchool"),
        // The control plane: admin guard, journal, faults, clock and token controls, events, path
        // owners, redaction, the OpenAPI document, the web console.
        .target(name: "MockControl", dependencies: ["EmulationKit", "HTTPServer", "MockAdminWire"], path: "Sources/Routes/Control"),
        // --state and --watch: the store, the state file, its writer and change log, the watcher,
        // the durability gate, the state document.
        .target(name: "StatePersistence", dependencies: ["EmulationKit", "HTTPServer"], path: "Sources/Routes/Persistence"),
        // The composition root: the registry, the seed, the app (which holds the stub store), the
        // admin routes that span the plane, the stages in order.
        .target(name: "Routes", dependencies: ["HTTPServer", "EmulationKit", "MockControl", "StatePersistence", "Stubs", "MockAdminWire"] + systemTargets,
                path: "Sources/Routes/Composition"),
        // WireMock-format stub mappings for every other endpoint: matching, answers, /__admin.
        // Built on the kit (its `UUIDText` and `StubReference`) and the wire types it lists in; the composition root
        // holds the store (`MockApp.stubs`) and hands the control plane what it needs of it
        // (`StubControls`), so neither the kit nor MockControl imports Stubs.
        .target(name: "Stubs", dependencies: ["EmulationKit", "HTTPServer", "LinearRegex", "MockAdminWire"], path: "Sources/Routes/Stubs"),
        // Regular expressions matched in linear time (Thompson NFA, Pike VM, lazy DFA, sets of
        // patterns); the C library only, so a crafted text cannot hold a thread.
        .target(name: "LinearRegex", path: "Sources/Routes/LinearRegex"),
        // The mock as a library: app construction, bundled seed, in-process start and stop.
        .target(name: "MockServerKit", dependencies: ["HTTPServer", "Routes", "EmulationKit", "MockControl", "StatePersistence", "Stubs", "MockServerAdminClient"]),
        // The admin API client (Foundation/URLSession only); re-exports the wire types.
        .target(name: "MockServerAdminClient", dependencies: ["MockAdminWire"]),
        // The JSON shapes of /__mock/ (faults, journal, clock, accounts, instances, outbox) and their
        // one date form, shared by the server (EmulationKit, MockControl, Routes) and the admin client.
        // Foundation only: it links neither the systems nor the transport. Public: part of the
        // MockServerAdminClient library's API.
        .target(name: "MockAdminWire"),
        // The executable: command line, banner, signals, state file; the app and server come from Routes and HTTPServer.
        // Not MockServerKit: its admin client would link FoundationNetworking (libcurl, TLS) into the server.
        .executableTarget(name: "MockServer", dependencies: ["HTTPServer", "Routes", "EmulationKit", "MockControl", "StatePersistence", "Stubs"]),
        // Shared by the test targets: a real server on an ephemeral port and raw-socket clients.
        .target(name: "TestSupport", dependencies: ["HTTPServer"], path: "Tests/TestSupport"),
        // The whole mock on a port (TestServer) and the built executable, for the tests above the transport.
        .target(name: "MockTestSupport", dependencies: ["HTTPServer", "TestSupport"] + mockTargets, path: "Tests/MockTestSupport"),
        .testTarget(name: "HTTPServerTests", dependencies: ["HTTPServer", "TestSupport"]),
        .testTarget(name: "LinearRegexTests", dependencies: ["LinearRegex"]),
        // MockServer: the executable tests run the built binary, and Xcode builds it first only for a
        // test target that depends on it (SwiftPM's swift test builds every product anyway).
        .testTarget(name: "RoutesTests", dependencies: mockTargets + ["MockAdminWire", "HTTPServer", "TestSupport", "MockTestSupport", "MockServerKit", "MockServer"],
                    // Files older servers wrote, read by the tests from the source tree.
                    exclude: ["Persistence/Fixtures"]),
        // The kit alone: what the systems build on, tested without any system or the composition root.
        .testTarget(name: "EmulationKitTests", dependencies: ["EmulationKit", "HTTPServer", "MockAdminWire"]),
        // The stubs: units on Stubs, and the whole mock on a port (TestServer) for what goes over the wire.
        .testTarget(name: "StubsTests", dependencies: ["Stubs", "Routes", "EmulationKit", "HTTPServer", "MockAdminWire", "LinearRegex",
                                                       "TestSupport", "MockTestSupport"]),
        .testTarget(name: "MockServerKitTests", dependencies: ["MockServerKit", "MockServerAdminClient", "MockAdminWire", "TestSupport", "MockTestSupport", "EmulationKit"]),
    ],
    swiftLanguageModes: [.v6]
)
