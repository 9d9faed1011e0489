// Stand-ins for XCTest's UI-testing API, which Linux's XCTest does not have, declared with Apple's
// isolation: XCUIElement and XCUIApplication are `@MainActor` classes in the SDK, so a recipe that
// touches them from a nonisolated test fails to compile here exactly as in Xcode's Swift 6 mode.
// Only what the recipes call; add members (with Apple's signatures) when a recipe needs more.
#if os(Linux)
import Foundation

@MainActor
open class XCUIElement {
    public init() {}
    public func tap() {}
    public func typeText(_ text: String) {}
}

@MainActor
public final class XCUIElementQuery {
    public init() {}
    public subscript(_ identifier: String) -> XCUIElement { XCUIElement() }
}

@MainActor
open class XCUIApplication: XCUIElement {
    public var launchEnvironment: [String: String] = [:]
    public var launchArguments: [String] = []
    public override init() {}
    public func launch() {}
    public func terminate() {}
    public var textFields: XCUIElementQuery { XCUIElementQuery() }
    public var buttons: XCUIElementQuery { XCUIElementQuery() }
    public var staticTexts: XCUIElementQuery { XCUIElementQuery() }
}
#endif
