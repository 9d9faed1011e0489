// swift-tools-version:6.0
import PackageDescription

// The WebSocket load client of scripts/bench.sh: no dependencies, one blocking thread per connection.
let package = Package(
    name: "wsload",
    targets: [.executableTarget(name: "wsload")],
    swiftLanguageModes: [.v6]
)
