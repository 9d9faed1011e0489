import Foundation
import HTTPServer

/// A response as a test client saw it on the wire.
package struct TestResponse: Sendable {
    package var status: Int
    package var headers: HTTPHeaders
    package var body: [UInt8]

    package init(status: Int, headers: HTTPHeaders, body: [UInt8]) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The body as UTF-8 text.
    package var text: String { String(decoding: body, as: UTF8.self) }
    /// The body parsed as JSON (any top-level value), or nil.
    package var json: Any? { JSON.parse(body) }
    /// The body parsed as a JSON object, or nil.
    package var jsonObject: [String: Any]? { JSON.parseObject(body) }
    /// The body parsed as a JSON array, or nil.
    package var jsonArray: [Any]? { JSON.parse(body) as? [Any] }
    /// A header value, name compared case-insensitively.
    package func header(_ name: String) -> String? { headers[name] }
}
