// swift-tools-version:6.0
import Foundation
import PackageDescription

// Every Swift block of README.md and docs/ compiled in Swift 6 mode, each as its own test target
// (so two recipes may declare the same names), against Shims/: XCTest's UI API and the code under
// test the recipes assume. The targets are written by scripts/readme-recipes.py (CI runs it before
// building); they are not committed, so a recipe cannot drift from the page it is on.
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
let generated = (try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("Tests").path)) ?? []
let recipes = generated.filter { $0.hasPrefix("Recipe_") }.sorted()

let package = Package(
    name: "ReadmeRecipes",
    platforms: [.macOS(.v15), .iOS(.v16)],   // mock-server's own floors
    dependencies: [
        .package(name: "mock-server", path: "../.."),
    ],
    targets: recipes.map { name in
        .testTarget(name: name, dependencies: [
            .product(name: "MockServerKit", package: "mock-server"),
            .product(name: "MockServerAdminClient", package: "mock-server"),
        ])
    },
    swiftLanguageModes: [.v6]
)
