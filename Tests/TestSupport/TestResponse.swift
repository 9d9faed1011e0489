import Foundation
import HTTPServer

/// A response as a test client saw it on the wire.
public struct TestResponse: Sendable {
    public var status: Int
    public var headers: HTTPHeaders
    public var body: [UInt8]

    public init(status: Int, headers: HTTPHeaders, body: [UInt8]) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The body as UTF-8 text.
    public var text: String { String(decoding: body, as: UTF8.self) }
    /// The body parsed as JSON (any top-level value), or nil.
    public var json: Any? { JSON.parse(body) }
    /// The body parsed as a JSON object, or nil.
    public var jsonObject: [String: Any]? { JSON.parseObject(body) }
    /// The body parsed as a JSON array, or nil.
    public var jsonArray: [Any]? { JSON.parse(body) as? [Any] }
    /// A header value, name compared case-insensitively.
    public func header(_ name: String) -> String? { headers[name] }
}
