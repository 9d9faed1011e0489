#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// The outbound client's bounds, the hosts it may reach and how it trusts https upstreams (`--proxy-timeout`,
/// `--outbound`, `--trust-all-proxy-targets`, `--trust-proxy-target`, `--proxy-ca-file`).
package struct OutboundSettings: Sendable {
    /// Which upstreams outbound requests may reach.
    package enum Policy: Sendable, Equatable {
        case all
        /// Only addresses on the loopback interface (CI: nothing leaves the machine).
        case loopback
        /// Only these host names or addresses, as written in the URL (lowercased).
        case hosts(Set<String>)
    }

    /// Seconds a connection may take to be established.
    package var connectTimeout = 10.0
    /// Seconds from the request's last byte to the answer's last byte (WireMock's proxy timeout).
    package var readTimeout = 30.0
    /// The largest answer head, in bytes.
    package var maxHeadBytes = 64 * 1024
    /// The largest answer body, in bytes: answers are read whole (not streamed), so this bounds
    /// what one proxied request holds in memory; past it the client gets 502.
    package var maxBodyBytes = 32 * 1024 * 1024
    /// Seconds an idle pooled connection is kept for its next request.
    package var idleSeconds = 30.0
    /// Idle connections kept per upstream.
    var maxIdlePerUpstream = 8
    package var policy = Policy.all
    /// Certificates of https upstreams are not verified (`--trust-all-proxy-targets`).
    package var trustAllTargets = false
    /// Hosts, as URLs write them (lowercased), whose certificates are not verified (`--trust-proxy-target`).
    package var trustedTargets: Set<String> = []
    /// Certificates trusted besides the system's (`--proxy-ca-file`), read when the setting is made.
    package var caFile: ProxyCAFile?
    /// How an upstream's name becomes addresses (`getaddrinfo`, off the loop; a test holds it to
    /// see the loop serve others meanwhile).
    package var lookup: @Sendable (_ host: String, _ port: Int) -> [(storage: sockaddr_storage, length: socklen_t)] = OutboundSettings.systemLookup
    /// `getaddrinfo`: IPv4 addresses first, then IPv6.
    package static let systemLookup: @Sendable (_ host: String, _ port: Int) -> [(storage: sockaddr_storage, length: socklen_t)] = {
        Sys.resolveForConnect($0, port: $1)
    }
    /// The OpenSSL library loaded for https (a test names a missing one to see the error).
    package var tlsLibrary = "libssl.so.3"
    /// What was already logged once per server (an upstream's unverified certificate, OpenSSL missing).
    let notes = OnceNotes()

    package init() {}

    /// What `policy(from:)` takes, for the message that refuses anything else.
    package static let policyForms = "all, loopback or a comma-separated list of hosts"

    /// Reads `--outbound`: `all`, `loopback`, or a comma-separated list of hosts.
    package static func policy(from text: String) -> Policy? {
        switch text.lowercased() {
        case "all": return .all
        case "loopback": return .loopback
        default:
            return hosts(from: text).map { .hosts(Set($0)) }
        }
    }

    /// A comma-separated list of host names or addresses, lowercased; nil when empty or not hosts.
    package static func hosts(from text: String) -> [String]? {
        let hosts = text.split(separator: ",").map { $0.trimmingASCIISpaces().lowercased() }.filter { !$0.isEmpty }
        guard !hosts.isEmpty, hosts.allSatisfy({ $0.utf8.allSatisfy(HTTPRequestParser.isHostByte) }) else { return nil }
        return hosts
    }
}

/// Keys already noted, across a server's loop threads: a log line said once per key.
final class OnceNotes: @unchecked Sendable {
    private let lock = Condition()
    private var seen: Set<String> = []

    /// True the first time `key` is given.
    func first(_ key: String) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return seen.insert(key).inserted
    }
}
