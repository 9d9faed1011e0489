#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// The addresses of this machine a phone on the same network can use: every interface that is up
/// and not loopback, numeric (getifaddrs exists on Darwin and Linux alike).
package enum NetworkInterfaces {
    /// IPv4 addresses, and IPv6 ones (link-local left out: they need a scope a URL cannot carry) when `includeIPv6`.
    package static func reachableAddresses(includeIPv6: Bool) -> [String] {
        var first: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&first) == 0 else { return [] }
        defer { freeifaddrs(first) }
        var result: [String] = []
        var next = first
        while let entry = next {
            next = entry.pointee.ifa_next
            let flags = Int32(bitPattern: UInt32(entry.pointee.ifa_flags))
            guard let addr = entry.pointee.ifa_addr, flags & Int32(IFF_UP) != 0, flags & Int32(IFF_LOOPBACK) == 0 else { continue }
            let family = Int32(addr.pointee.sa_family)
            guard family == AF_INET || (includeIPv6 && family == AF_INET6) else { continue }
            let length = family == AF_INET ? socklen_t(MemoryLayout<sockaddr_in>.size) : socklen_t(MemoryLayout<sockaddr_in6>.size)
            var host = [CChar](repeating: 0, count: Int(NI_MAXHOST))
            guard getnameinfo(addr, length, &host, socklen_t(host.count), nil, 0, NI_NUMERICHOST) == 0 else { continue }
            let text = String(decoding: host.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if text.lowercased().hasPrefix("fe80") || result.contains(text) { continue }
            result.append(text)
        }
        return result
    }
}
