// swift-tools-version:6.0
import PackageDescription

// A consumer of mock-server: its tests start the whole mock in-process with MockServerKit.
let package = Package(
    name: "RegistrationExample",
    platforms: [.macOS(.v15), .iOS(.v16)],   // at least mock-server's own floors
    dependencies: [
        .package(name: "mock-server", path: "../.."),
    ],
    targets: [
        // The code under test: a tiny musbooking client on URLSession.
        .target(name: "RegistrationExample"),
        .testTarget(name: "RegistrationExampleTests", dependencies: [
            "RegistrationExample",
            .product(name: "MockServerKit", package: "mock-server"),
        ]),
    ],
    swiftLanguageModes: [.v6]
)
