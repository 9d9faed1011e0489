import HTTPServer
import MockAdminWire
import MockTestSupport
@testable import Routes
import XCTest

/// The admin client's operations (`MockAdminRoute.all`) against the server's router: the client
/// can never call a method and path the server lacks, and a value it fills in arrives whole.
final class AdminRouteSpecTests: MockServerTestCase {
    func testTheServersTableHasEveryOperationTheClientCalls() {
        let table = server.app.makeRouter().routeTable
        let registered = Set(table.compactMap { route in route.method.map { "\($0.rawValue) \(route.pattern)" } })
        let missing = MockAdminRoute.all.map(\.description).filter { !registered.contains($0) }
        XCTAssertEqual(missing, [], "every operation of MockAdminRoute.all is in the server's route table")
        XCTAssertEqual(Set(MockAdminRoute.all).count, MockAdminRoute.all.count, "no operation listed twice")
        let documented = Set(server.app.adminRoutes.map { "\($0.method.rawValue) \($0.path)" })
        XCTAssertEqual(MockAdminRoute.all.map(\.description).filter { !documented.contains($0) }, [],
                       "and in the admin table the OpenAPI document is written from")
    }

    /// A route's handler is made by its first request and kept: read 200,000 times it is still
    /// called directly. Kept bare in a `Locked`, a closure gained two re-abstraction thunks per
    /// read, and a route called some tens of thousands of times overflowed the stack.
    func testARoutesHandlerIsCalledDirectlyHowEverOftenItIsRead() throws {
        let health = try XCTUnwrap(server.app.adminRoutes.first { $0.method == .get && $0.path == MockApp.healthPath })
        let request = HTTPRequest(method: .get, target: MockApp.healthPath)
        var ok = 0
        for _ in 0..<200_000 {
            var context = RequestContext()
            if health.handler(request, &context).status.code == 200 { ok += 1 }
        }
        XCTAssertEqual(ok, 200_000)
    }

    /// A filled-in path reaches its own route, with each parameter decoded back to the value given,
    /// whatever it holds (a `/`, a space, a `%`, non-ASCII).
    func testAFilledInPathReachesItsRouteWithItsValues() {
        let router = server.app.makeRouter()
        let odd = ["a/b c", "100%", "Жёлтый ü", "x?y#z", "..", "plain"]
        for route in MockAdminRoute.all {
            let values = route.parameters.indices.map { odd[($0 + route.pattern.count) % odd.count] }
            let path = route.path(values)
            var context = RequestContext()
            let request = HTTPRequest(method: HTTPMethod(route.method), target: path)
            guard case .http = router.match(request, context: &context) else {
                XCTFail("\(route): \(path) is not answered by its route")
                continue
            }
            for (name, value) in zip(route.parameters, values) {
                XCTAssertEqual(context.pathParameters[name], value, "\(route) \(path) :\(name)")
            }
        }
    }
}

/// `MockAdminRoute.path(_:)`: each value one percent-encoded path segment.
final class AdminRoutePathTests: XCTestCase {
    func testValuesArePercentEncodedAsOneSegment() {
        XCTAssertEqual(MockAdminRoute.removeFault.path("7"), "/__mock/faults/7")
        XCTAssertEqual(MockAdminRoute.removeStub.path("a/b c"), "/__admin/mappings/a%2Fb%20c")
        XCTAssertEqual(MockAdminRoute.removeStub.path("100%"), "/__admin/mappings/100%25")
        XCTAssertEqual(MockAdminRoute.removeStub.path("ё"), "/__admin/mappings/%D1%91")
        XCTAssertEqual(MockAdminRoute.removeStub.path("x?y#z[]"), "/__admin/mappings/x%3Fy%23z%5B%5D")
        // RFC 3986 pchar stays as it is.
        XCTAssertEqual(MockAdminRoute.removeStub.path("a-._~!$&'()*+,;=:@Z9"), "/__admin/mappings/a-._~!$&'()*+,;=:@Z9")
        // A dot segment is escaped, so that no client or proxy removes it.
        XCTAssertEqual(MockAdminRoute.removeInstance.path(".."), "/__mock/instances/%2E%2E")
        XCTAssertEqual(MockAdminRoute.removeInstance.path("."), "/__mock/instances/%2E")
        XCTAssertEqual(MockAdminRoute.removeStub.path("a.b"), "/__admin/mappings/a.b")
    }

    func testParametersAreFilledInOrder() {
        XCTAssertEqual(MockAdminRoute.removeAccount.parameters, ["system", "id"])
        XCTAssertEqual(MockAdminRoute.removeAccount.path("rows", "user 1"), "/__mock/accounts/rows/user%201")
        XCTAssertEqual(MockAdminRoute.removeAccount.path(["rows", "user 1"]), "/__mock/accounts/rows/user%201")
        XCTAssertEqual(MockAdminRoute.faults.path(), "/__mock/faults", "no parameters: the pattern")
        XCTAssertEqual(MockAdminRoute.faults.path("extra"), "/__mock/faults", "a value beyond the parameters is ignored")
        XCTAssertEqual(MockAdminRoute.removeAccount.path("rows"), "/__mock/accounts/rows/:id", "a parameter without a value stays as written")
        XCTAssertEqual(MockAdminRoute.removeFault.description, "DELETE /__mock/faults/:id")
    }
}
