/// The server-wide budget for unwritten output of pushed WebSocket messages (`WebSocketConnection
/// .send` from other threads: the events stream's fan-out), summed over every connection of every
/// loop. A pushed frame is charged when queued and released as it is written. When a charge would
/// pass the budget, the connections holding most are shed until it fits: each is told (through
/// its loop's mailbox) to drop its unsent frames and close with a reason. So a crowd of
/// subscribers that never read holds at most the budget, not the per-connection cap each, and a
/// subscriber that keeps up is not the one closed.
final class PushBudget: Sendable {
    private struct Holder {
        var bytes: Int
        let mailbox: LoopMailbox
    }

    private struct State {
        var total = 0
        var peak = 0
        var holders: [ConnectionID: Holder] = [:]
        var shed = 0
    }

    let limit: Int
    private let state = Locked(State())

    init(limit: Int) { self.limit = max(1, limit) }

    /// Charges `bytes` to connection `id`; false when that connection itself holds the most and
    /// must be shed (the caller closes it). Others shed to make room are told through their mailbox.
    func charge(_ bytes: Int, to id: ConnectionID, mailbox: LoopMailbox) -> Bool {
        var victims: [(ConnectionID, LoopMailbox)] = []
        let charged = state.withLock { s -> Bool in
            while s.total + bytes > limit {
                guard let biggest = s.holders.max(by: { $0.value.bytes < $1.value.bytes }), biggest.key != id,
                      biggest.value.bytes > 0 else { break }
                s.holders[biggest.key] = nil
                s.total -= biggest.value.bytes
                s.shed += 1
                victims.append((biggest.key, biggest.value.mailbox))
            }
            guard s.total + bytes <= limit else {
                // This connection holds the most (or nothing else can make room): it goes.
                if let own = s.holders.removeValue(forKey: id) { s.total -= own.bytes }
                s.shed += 1
                return false
            }
            s.holders[id, default: Holder(bytes: 0, mailbox: mailbox)].bytes += bytes
            s.total += bytes
            s.peak = max(s.peak, s.total)
            return true
        }
        for (victim, box) in victims { box.post(victim, .shed) }
        return charged
    }

    /// Gives back up to `bytes` of what connection `id` holds (written, or the connection closed).
    func release(_ bytes: Int, from id: ConnectionID) {
        state.withLock { s in
            guard var holder = s.holders[id] else { return }
            let given = min(bytes, holder.bytes)
            holder.bytes -= given
            s.total -= given
            s.holders[id] = holder.bytes > 0 ? holder : nil
        }
    }

    /// Unwritten pushed bytes charged now, the most ever charged at once, and sheds (a connection
    /// charged again before its loop has closed it can be shed, and counted, twice).
    var figures: (held: Int, peak: Int, shed: Int) { state.withLock { ($0.total, $0.peak, $0.shed) } }
}
