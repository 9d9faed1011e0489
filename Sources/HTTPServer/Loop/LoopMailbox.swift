/// The queue other threads post connection commands to, and a new responder
/// (`Server.replaceResponder`); the loop drains both with one lock when woken.
final class LoopMailbox: Sendable {
    private struct Inbox {
        var commands: [(ConnectionID, ConnectionCommand)] = []
        var swap: ResponderSwap?
        /// The loop has finished: a swap posted now has nobody to take it.
        var closed = false
    }

    private let inbox = Locked(Inbox())
    private let wake: @Sendable () -> Void

    init(wake: @escaping @Sendable () -> Void) { self.wake = wake }

    func post(_ id: ConnectionID, _ command: ConnectionCommand) {
        let first = inbox.withLock { i -> Bool in
            i.commands.append((id, command))
            return i.commands.count == 1
        }
        // One wake-up per batch: the loop takes the whole queue at once.
        if first { wake() }
    }

    /// Several commands for one connection, under one lock and at most one wake-up.
    func post(_ id: ConnectionID, _ batch: [ConnectionCommand]) {
        let first = inbox.withLock { i -> Bool in
            let wasEmpty = i.commands.isEmpty
            i.commands.append(contentsOf: batch.lazy.map { (id, $0) })
            return wasEmpty
        }
        if first { wake() }
    }

    /// Hands the loop a new responder. A swap the loop has not taken yet is replaced (the newer
    /// one wins) and counted as taken; after `close` the swap is counted at once.
    func post(_ swap: ResponderSwap) {
        let (superseded, open) = inbox.withLock { i -> (ResponderSwap?, Bool) in
            guard !i.closed else { return (nil, false) }
            defer { i.swap = swap }
            return (i.swap, true)
        }
        superseded?.loopTookIt()
        if open { wake() } else { swap.loopTookIt() }
    }

    /// The commands posted since the last take, and the newest responder if one was posted.
    func take() -> (commands: [(ConnectionID, ConnectionCommand)], swap: ResponderSwap?) {
        inbox.withLock { i in
            if i.commands.isEmpty && i.swap == nil { return ([], nil) }
            defer {
                i.commands.removeAll()
                i.swap = nil
            }
            return (i.commands, i.swap)
        }
    }

    /// The loop has stopped: a pending swap (returned) and later ones are counted as taken.
    func close() -> ResponderSwap? {
        inbox.withLock { i in
            i.closed = true
            defer { i.swap = nil }
            return i.swap
        }
    }
}
