/// An HTTP request method, compared by its exact (case-sensitive) token as RFC 9110 says.
package struct HTTPMethod: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    package let rawValue: String
    package init(rawValue: String) { self.rawValue = rawValue }
    package init(_ rawValue: String) { self.rawValue = rawValue }
    package var description: String { rawValue }

    package static let get = HTTPMethod("GET")
    package static let head = HTTPMethod("HEAD")
    package static let post = HTTPMethod("POST")
    package static let put = HTTPMethod("PUT")
    package static let patch = HTTPMethod("PATCH")
    package static let delete = HTTPMethod("DELETE")
    package static let options = HTTPMethod("OPTIONS")
}

/// The protocol version of a request line (`HTTP/1.1` → 1.1).
package struct HTTPVersion: Hashable, Sendable, CustomStringConvertible {
    package var major: Int
    package var minor: Int
    package init(major: Int, minor: Int) { self.major = major; self.minor = minor }
    package static let http1_0 = HTTPVersion(major: 1, minor: 0)
    package static let http1_1 = HTTPVersion(major: 1, minor: 1)
    package var description: String { "HTTP/\(major).\(minor)" }
}
