import Foundation
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// The HTTP/1.1 + WebSocket server: a few epoll event loops (one per core by default), no thread per connection.
public final class Server: @unchecked Sendable {
    public let configuration: ServerConfiguration
    private let shared: ServerShared
    // Written once in start() before any loop thread exists, read afterwards: no lock needed.
    private var loops: [EventLoop] = []
    private let finished = DispatchGroup()
    private var boundPort = 0

    public init(configuration: ServerConfiguration, responder: Responder, logger: Logger = Logger()) {
        self.configuration = configuration
        shared = ServerShared(configuration: configuration, responder: responder, logger: logger)
    }

    /// The port actually bound (differs from the configuration when it asked for 0).
    public var port: Int { boundPort }

    /// Open client connections right now, across all loops.
    public var openConnections: Int { shared.openConnections }

    /// Binds the address and starts the event loops; returns once the server accepts connections.
    public func start() throws {
        signal(SIGPIPE, SIG_IGN)
        let count = configuration.eventLoops > 0 ? configuration.eventLoops : max(1, ProcessInfo.processInfo.activeProcessorCount)
        var fds: [Int32] = []
        do {
            var port = configuration.port
            if count > 1 {
                // SO_REUSEPORT sockets share a port with any other such socket of this user, so a second
                // mock-server would silently join ours; a plain bind first fails on a busy port as it should.
                let probe = try Socket.listen(host: configuration.host, port: port, backlog: 1, reusePort: false)
                close(probe.fd)
                port = probe.port
            }
            for _ in 0..<count {
                let (fd, bound) = try Socket.listen(host: configuration.host, port: port, backlog: 4096, reusePort: count > 1)
                fds.append(fd)
                port = bound
            }
            boundPort = port
            for (i, fd) in fds.enumerated() { loops.append(try EventLoop(id: i, listenFD: fd, port: port, shared: shared)) }
        } catch {
            if loops.isEmpty { for fd in fds { close(fd) } }
            throw error
        }
        for loop in loops {
            finished.enter()
            let thread = Thread { [finished] in
                loop.run()
                finished.leave()
            }
            thread.name = "mock-server-loop-\(loop.id)"
            thread.start()
        }
    }

    /// Stops accepting, lets requests in flight finish (up to `shutdownGrace`), then stops the loops.
    /// Safe to call from any thread, more than once.
    public func shutdown() {
        shared.markStopping()
        for loop in loops { loop.wake() }
    }

    /// Blocks until every loop has stopped after `shutdown()`.
    public func waitUntilStopped() {
        finished.wait()
    }
}
