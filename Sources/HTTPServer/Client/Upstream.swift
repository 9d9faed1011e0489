#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// Where outbound requests go: scheme, host and port of a base URL, and the path it starts with.
package struct Upstream: Hashable, Sendable, CustomStringConvertible {
    package enum Scheme: String, Sendable { case http, https }
    package let scheme: Scheme
    /// As written in the URL (an IPv6 literal keeps its brackets), lowercased.
    package let host: String
    package let port: Int
    /// The base URL's path without a trailing slash (`""` for none): prefixed to every request's.
    package let basePath: String

    /// The host without an IPv6 literal's brackets (what `getaddrinfo`, SNI and name checks take).
    var bareHost: String { host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host }

    /// The host is an IPv4 or IPv6 address, not a name: no name server is asked, no SNI is sent.
    var hostIsAddress: Bool {
        var v4 = in_addr(), v6 = in6_addr()
        return inet_pton(AF_INET, bareHost, &v4) == 1 || inet_pton(AF_INET6, bareHost, &v6) == 1
    }

    /// Why a base URL is not one.
    package struct Invalid: Error, Sendable { package let reason: String }

    /// Reads `http://host[:port][/path]` (or `https://…`); query and fragment are refused.
    package init(baseURL text: String) throws(Invalid) {
        let lower = text.lowercased()
        let rest: Substring
        if lower.hasPrefix("http://") {
            scheme = .http
            rest = text.dropFirst(7)
        } else if lower.hasPrefix("https://") {
            scheme = .https
            rest = text.dropFirst(8)
        } else {
            throw Invalid(reason: "\"\(text)\" is not an http:// or https:// URL")
        }
        if rest.contains("?") || rest.contains("#") { throw Invalid(reason: "\"\(text)\": a base URL has no query or fragment") }
        let authority = rest.prefix { $0 != "/" }
        var path = String(rest.dropFirst(authority.count))
        while path.hasSuffix("/") { path.removeLast() }
        if authority.contains("@") { throw Invalid(reason: "\"\(text)\": user information in the URL is not supported") }
        var hostPart = Substring(authority)
        var port = scheme == .https ? 443 : 80
        if hostPart.hasPrefix("[") {
            guard let close = hostPart.firstIndex(of: "]") else { throw Invalid(reason: "\"\(text)\": unclosed IPv6 literal") }
            let after = hostPart[hostPart.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":"), let p = Int(after.dropFirst()), (1...65535).contains(p) else { throw Invalid(reason: "\"\(text)\": bad port") }
                port = p
            }
            hostPart = hostPart[...close]
        } else if let colon = hostPart.lastIndex(of: ":") {
            guard let p = Int(hostPart[hostPart.index(after: colon)...]), (1...65535).contains(p) else { throw Invalid(reason: "\"\(text)\": bad port") }
            port = p
            hostPart = hostPart[..<colon]
        }
        guard !hostPart.isEmpty, hostPart.utf8.allSatisfy({ HTTPRequestParser.isHostByte($0) }) else {
            throw Invalid(reason: "\"\(text)\": no valid host")
        }
        host = hostPart.lowercased()
        self.port = port
        basePath = path
    }

    /// `host[:port]` as a `Host` field gives it (the port left out when it is the scheme's default).
    var hostField: String {
        port == (scheme == .https ? 443 : 80) ? host : "\(host):\(port)"
    }

    package var description: String { "\(scheme.rawValue)://\(hostField)" }
}

extension Upstream {
    /// A whole URL as the upstream (scheme, host, port) and the request target (path and query, `/` when none).
    package static func split(url text: String) throws(Invalid) -> (Upstream, String) {
        guard let schemeEnd = text.firstRange(of: "://") else { throw Invalid(reason: "\"\(text)\" is not an http:// or https:// URL") }
        let afterScheme = text[schemeEnd.upperBound...]
        let slash = afterScheme.firstIndex(where: { $0 == "/" || $0 == "?" }) ?? afterScheme.endIndex
        let upstream = try Upstream(baseURL: String(text[..<slash]))
        var target = String(text[slash...]).split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
        if target.isEmpty { target = "/" } else if target.hasPrefix("?") { target = "/" + target }
        return (upstream, target)
    }
}
