#if os(Linux)
import Glibc
import CEpoll

/// Linux epoll, level-triggered, woken through an eventfd. The default on Linux.
final class EpollPoller: Poller, @unchecked Sendable {
    // Immutable after init; epoll and eventfd calls are thread-safe, and only `wake` is used off the loop thread.
    private let epfd: Int32
    // Used by its loop's thread only: no dynamic exclusivity checks on each wait.
    private let wakeFD: Int32
    @exclusivity(unchecked) private var buffer: [epoll_event]

    init(capacity: Int = 256) throws {
        epfd = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard epfd >= 0 else { throw ServerError.system(call: "epoll_create1", errno: errno) }
        wakeFD = eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC))
        guard wakeFD >= 0 else {
            let e = errno
            Sys.close(epfd)
            throw ServerError.system(call: "eventfd", errno: e)
        }
        buffer = [epoll_event](repeating: epoll_event(), count: max(1, capacity))
        do {
            try control(EPOLL_CTL_ADD, wakeFD, read: true, write: false)
        } catch {
            Sys.close(wakeFD)
            Sys.close(epfd)
            throw error
        }
    }

    deinit {
        Sys.close(epfd)
        Sys.close(wakeFD)
    }

    func add(_ fd: Int32, read: Bool, write: Bool) throws {
        try control(EPOLL_CTL_ADD, fd, read: read, write: write)
    }

    func modify(_ fd: Int32, read: Bool, write: Bool) throws {
        try control(EPOLL_CTL_MOD, fd, read: read, write: write)
    }

    func remove(_ fd: Int32) {
        _ = epoll_ctl(epfd, EPOLL_CTL_DEL, fd, nil)
    }

    func wait(timeoutMillis: Int32, into events: inout [PollEvent]) throws -> Int {
        events.removeAll(keepingCapacity: true)
        let n = buffer.withUnsafeMutableBufferPointer { epoll_wait(epfd, $0.baseAddress, Int32($0.count), timeoutMillis) }
        if n < 0 {
            let e = errno
            if e == EINTR { return 0 }
            throw ServerError.system(call: "epoll_wait", errno: e)
        }
        let hangupMask = EPOLLHUP.rawValue | EPOLLERR.rawValue
        for i in 0..<Int(n) {
            let ev = buffer[i]
            let fd = Int32(truncatingIfNeeded: ev.data.u64)
            if fd == wakeFD {
                var value: UInt64 = 0
                _ = read(wakeFD, &value, 8)
                continue
            }
            events.append(PollEvent(fd: fd,
                                    readable: ev.events & EPOLLIN.rawValue != 0,
                                    writable: ev.events & EPOLLOUT.rawValue != 0,
                                    hangup: ev.events & hangupMask != 0))
        }
        return events.count
    }

    func wake() {
        var one: UInt64 = 1
        _ = write(wakeFD, &one, 8)
    }

    private func control(_ op: Int32, _ fd: Int32, read: Bool, write: Bool) throws {
        var ev = epoll_event()
        ev.events = (read ? EPOLLIN.rawValue : 0) | (write ? EPOLLOUT.rawValue : 0)
        ev.data.u64 = UInt64(UInt32(bitPattern: fd))
        guard epoll_ctl(epfd, op, fd, &ev) == 0 else { throw ServerError.system(call: "epoll_ctl", errno: errno) }
    }
}
#endif
