#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif
import Dispatch

/// An upstream's addresses for one loop's outbound client, without blocking the loop:
/// `getaddrinfo` may wait seconds for a name server, and every other connection of the loop would
/// wait with it. An address literal is read at once; a name is looked up on a Dispatch worker,
/// whose answer comes back through the inbox and the poller's `wake()`. Lookups of one upstream are
/// shared by the requests waiting for it; answers are kept a minute; a lookup that takes longer
/// than the connect timeout fails the requests that wait for it (its late answer is still kept).
///
/// Confined to the loop's thread but for `inbox`, which the workers fill.
final class UpstreamResolver: @unchecked Sendable {
    typealias Addresses = [(storage: sockaddr_storage, length: socklen_t)]
    /// What looks a name up (`getaddrinfo`; a test holds it to see the loop go on).
    typealias Lookup = @Sendable (_ host: String, _ port: Int) -> Addresses

    /// How long an answer is used before the name is looked up again.
    static let lifetime: UInt64 = 60_000_000_000

    private let lookup: Lookup
    private let wake: @Sendable () -> Void
    private let timeoutNanos: UInt64
    @exclusivity(unchecked) private var cache: [Upstream: (addresses: Addresses, at: UInt64)] = [:]
    /// Names being looked up, with the requests waiting for each and when they give up.
    @exclusivity(unchecked) private var pending: [Upstream: (waiting: [OutboundExchange], deadline: UInt64)] = [:]
    private let inbox = Locked<[(upstream: Upstream, addresses: Addresses)]>([])

    init(lookup: @escaping Lookup, timeoutNanos: UInt64, wake: @escaping @Sendable () -> Void) {
        self.lookup = lookup
        self.timeoutNanos = timeoutNanos
        self.wake = wake
    }

    /// Whether requests wait for a lookup (the loop then ticks the client).
    var isWaiting: Bool { !pending.isEmpty }

    /// The earliest time a waiting request gives up (0: none).
    var nextDeadline: UInt64 { pending.values.lazy.map(\.deadline).min() ?? 0 }

    /// `exchange`'s upstream's addresses now (kept, or an address literal), or nil: the exchange
    /// waits for a lookup and comes back from `collect`.
    func addresses(for exchange: OutboundExchange, now: UInt64) -> Addresses? {
        let upstream = exchange.request.upstream
        if let kept = cache[upstream], now &- kept.at < UpstreamResolver.lifetime { return kept.addresses }
        if upstream.hostIsAddress {
            // No name server is asked for a literal: read at once.
            let addresses = lookup(upstream.host, upstream.port)
            if !addresses.isEmpty { cache[upstream] = (addresses, now) }
            return addresses
        }
        if pending[upstream] != nil {
            pending[upstream]?.waiting.append(exchange)
            return nil
        }
        pending[upstream] = ([exchange], now &+ timeoutNanos)
        let (lookup, inbox, wake) = (self.lookup, self.inbox, self.wake)
        DispatchQueue.global().async {
            let addresses = lookup(upstream.host, upstream.port)
            inbox.withLock { $0.append((upstream, addresses)) }
            wake()
        }
        return nil
    }

    /// The waiting requests whose lookup answered (with its addresses, maybe none) or ran out of
    /// time (nil), in the order they asked.
    func collect(now: UInt64) -> [(exchange: OutboundExchange, addresses: Addresses?)] {
        var ready: [(exchange: OutboundExchange, addresses: Addresses?)] = []
        let answered = inbox.withLock { inbox in
            defer { inbox.removeAll() }
            return inbox
        }
        for (upstream, addresses) in answered {
            if !addresses.isEmpty { cache[upstream] = (addresses, now) }
            guard let waiting = pending.removeValue(forKey: upstream)?.waiting else { continue }
            for exchange in waiting { ready.append((exchange, addresses)) }
        }
        for (upstream, entry) in pending where entry.deadline <= now {
            pending[upstream] = nil
            for exchange in entry.waiting { ready.append((exchange, nil)) }
        }
        return ready
    }

    /// The requests still waiting, taken away (the loop is stopping).
    func takeWaiting() -> [OutboundExchange] {
        defer { pending = [:] }
        return pending.values.flatMap(\.waiting)
    }
}
