#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// Portable poll(2), woken through a self-pipe. Runs on Linux and Darwin alike, so CI exercises the
/// code Darwin shares; each wait costs O(watched descriptors), fine for a test fixture.
final class PollPoller: Poller, @unchecked Sendable {
    // Used by its loop's thread only: no dynamic exclusivity checks on each wait.
    // Only the loop thread touches `fds` and `slots`; `wake` only writes to the immutable pipe end.
    @exclusivity(unchecked) private var fds: [pollfd]
    /// fd → index in `fds`, -1 when not watched.
    @exclusivity(unchecked) private var slots: [Int32] = []
    private let wakeRead: Int32
    private let wakeWrite: Int32

    init() throws {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw ServerError.system(call: "pipe", errno: errno) }
        wakeRead = ends[0]
        wakeWrite = ends[1]
        for fd in ends {
            Sys.setNonBlocking(fd)
            Sys.setCloseOnExec(fd)
        }
        fds = [pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
    }

    deinit {
        Sys.close(wakeRead)
        Sys.close(wakeWrite)
    }

    func add(_ fd: Int32, read: Bool, write: Bool) throws {
        guard fd >= 0 else { throw ServerError.system(call: "poll add", errno: EBADF) }
        let i = Int(fd)
        if i >= slots.count { slots.append(contentsOf: repeatElement(-1, count: max(i + 1 - slots.count, slots.count))) }
        guard slots[i] < 0 else { throw ServerError.system(call: "poll add", errno: EEXIST) }
        slots[i] = Int32(fds.count)
        fds.append(pollfd(fd: fd, events: PollPoller.mask(read: read, write: write), revents: 0))
    }

    func modify(_ fd: Int32, read: Bool, write: Bool) throws {
        guard let slot = slot(fd) else { throw ServerError.system(call: "poll modify", errno: ENOENT) }
        fds[slot].events = PollPoller.mask(read: read, write: write)
    }

    func remove(_ fd: Int32) {
        guard let slot = slot(fd) else { return }
        let last = fds.count - 1
        if slot != last {
            fds[slot] = fds[last]
            slots[Int(fds[slot].fd)] = Int32(slot)
        }
        fds.removeLast()
        slots[Int(fd)] = -1
    }

    func wait(timeoutMillis: Int32, into events: inout [PollEvent]) throws -> Int {
        events.removeAll(keepingCapacity: true)
        let n = fds.withUnsafeMutableBufferPointer { poll($0.baseAddress, nfds_t($0.count), timeoutMillis) }
        if n < 0 {
            let e = errno
            if e == EINTR { return 0 }
            throw ServerError.system(call: "poll", errno: e)
        }
        var remaining = Int(n)
        let hangupMask = Int16(POLLHUP) | Int16(POLLERR) | Int16(POLLNVAL)
        var i = 0
        while remaining > 0 && i < fds.count {
            let p = fds[i]
            i += 1
            guard p.revents != 0 else { continue }
            remaining -= 1
            if p.fd == wakeRead {
                drainWake()
                continue
            }
            events.append(PollEvent(fd: p.fd,
                                    readable: p.revents & Int16(POLLIN) != 0,
                                    writable: p.revents & Int16(POLLOUT) != 0,
                                    hangup: p.revents & hangupMask != 0))
        }
        return events.count
    }

    func wake() {
        var one: UInt8 = 1
        // A full pipe already holds a pending wake-up; nothing is lost by a failed write.
        _ = write(wakeWrite, &one, 1)
    }

    private func drainWake() {
        var sink = (UInt64(0), UInt64(0), UInt64(0), UInt64(0))
        while withUnsafeMutableBytes(of: &sink, { read(wakeRead, $0.baseAddress, $0.count) }) > 0 {}
    }

    private func slot(_ fd: Int32) -> Int? {
        let i = Int(fd)
        guard i >= 0, i < slots.count, slots[i] >= 0 else { return nil }
        return Int(slots[i])
    }

    private static func mask(read: Bool, write: Bool) -> Int16 {
        (read ? Int16(POLLIN) : 0) | (write ? Int16(POLLOUT) : 0)
    }
}
