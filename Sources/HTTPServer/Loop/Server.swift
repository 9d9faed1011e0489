#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Dispatch

/// The HTTP/1.1 + WebSocket server: a few event loops (one per core by default), no thread per connection.
package final class Server: @unchecked Sendable {
    package let configuration: ServerConfiguration
    private let shared: ServerShared
    // Written once in start() before any loop thread exists (under `lifecycle`, which
    // replaceResponder takes to read it), read afterwards.
    private var loops: [EventLoop] = []
    private let finished = DispatchGroup()
    private var boundPort = 0
    /// Held by `start` while it creates the loops and by `replaceResponder`, so a swap lands
    /// either before the loops exist (they start with it) or after (they are sent it).
    private let lifecycle = Locked(())

    package init(configuration: ServerConfiguration, responder: Responder, logger: Logger = Logger()) {
        self.configuration = configuration
        shared = ServerShared(configuration: configuration, responder: responder, logger: logger)
    }

    /// The port actually bound (differs from the configuration when it asked for 0).
    package var port: Int { boundPort }

    /// Open client connections right now, across all loops.
    package var openConnections: Int { shared.openConnections }

    /// The connection limit in force: `maxConnections`, lowered when the descriptor limit is smaller.
    package var connectionLimit: Int { shared.connectionLimit }

    /// The largest unwritten output any connection has had so far (bounded by `maxPendingOutputBytes`
    /// plus one answer); for tests of the output bound.
    package var peakPendingOutput: Int { shared.peakPendingOutput }
    /// Unwritten pushed WebSocket output now, the most there has been at once (both within
    /// `maxPushedOutputBytes`), and how many connections were closed to stay within it.
    package var pushedOutput: (held: Int, peak: Int, shed: Int) { shared.pushBudget.figures }

    /// Whether accepted sockets come from one listener handed to the loops (Darwin always, where
    /// SO_REUSEPORT does not spread connections; the poll backend and `singleListener` on Linux).
    package var usesSingleListener: Bool {
        configuration.singleListener || configuration.poller == .poll || !Sys.reusePortSpreadsConnections
    }

    /// Binds the address and starts the event loops; returns once the server accepts connections.
    package func start() throws {
        try lifecycle.withLock { (_: inout Void) throws(any Error) in try startLoops() }
    }

    private func startLoops() throws {
        let count = configuration.eventLoops > 0 ? configuration.eventLoops : max(1, ProcessInfo.processInfo.activeProcessorCount)
        shared.setConnectionLimit(ConnectionBudget.apply(configured: configuration.maxConnections, eventLoops: count, logger: shared.logger))
        let single = usesSingleListener || count == 1
        // Each listening loop's sockets: one per address the host resolves to (localhost: two).
        var listeners: [[Int32]] = []
        do {
            var port = configuration.port
            if !single {
                // SO_REUSEPORT sockets share a port with any other such socket of this user, so a second
                // mock-server would silently join ours; a plain bind first fails on a busy port as it should.
                let probe = try Sys.listen(host: configuration.host, port: port, backlog: 1, reusePort: false)
                for fd in probe.fds { Sys.close(fd) }
                port = probe.port
            }
            for _ in 0..<(single ? 1 : count) {
                let (fds, bound) = try Sys.listen(host: configuration.host, port: port, backlog: 4096, reusePort: !single)
                listeners.append(fds)
                port = bound
            }
            boundPort = port
            for i in 0..<count {
                loops.append(try EventLoop(id: i, listenFDs: i < listeners.count ? listeners[i] : [], port: port, shared: shared))
                if i < listeners.count { shared.listenerOpened() }
            }
        } catch {
            if loops.isEmpty { for fd in listeners.joined() { Sys.close(fd) } }
            throw error
        }
        for (i, loop) in loops.enumerated() { loop.join(loops, distribute: single && count > 1 && i == 0) }
        for loop in loops {
            finished.enter()
            DetachedThread.start(name: "mock-server-loop-\(loop.id)") { [finished] in
                loop.run()
                finished.leave()
            }
        }
    }

    /// Answers every request from now on with `responder` (a new seed under `--watch`), without
    /// a restart and without a lock on the request path: each loop keeps its own copy and takes
    /// the new one through its mailbox, which it drains under one lock per wake-up anyway.
    /// Returns at once; `applied` runs (on some loop's thread, or this one) once no loop answers
    /// with the old responder any more: a request sent after that gets the new one. Requests a
    /// loop is answering at that moment finish with the old one; open WebSockets keep their
    /// endpoint. Safe from any thread but a loop's own, at any time (during `start` it waits for
    /// it); `applied` must not call it again.
    package func replaceResponder(_ responder: Responder, applied: @escaping @Sendable () -> Void = {}) {
        // Under the lock, so two swaps reach every loop in the order they set the server's.
        lifecycle.withLock { _ in
            shared.setResponder(responder)
            let swap = ResponderSwap(responder: responder, loops: loops.count, applied: applied)
            for loop in loops { loop.mailbox.post(swap) }
        }
    }

    /// Stops accepting, lets requests in flight finish (up to `shutdownGrace`), then stops the loops.
    /// Safe to call from any thread, more than once.
    package func shutdown() {
        shared.markStopping()
        for loop in loops { loop.wake() }
    }

    /// Blocks until every loop has stopped after `shutdown()`.
    package func waitUntilStopped() {
        finished.wait()
    }
}
