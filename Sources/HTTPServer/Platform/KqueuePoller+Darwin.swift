#if canImport(Darwin)
import Darwin

/// Darwin kqueue, level-triggered (no EV_CLEAR on sockets), woken by an EVFILT_USER event. The
/// default on Darwin. Every watched descriptor has both a read and a write filter, each enabled or
/// disabled, so `modify` and `remove` never meet a filter that is missing. `EV_ADD` re-registers a
/// descriptor kqueue no longer watches, so `watched` keeps the add/modify contract of epoll and poll.
final class KqueuePoller: Poller, @unchecked Sendable {
    // Immutable after init; kevent calls are thread-safe, and only `wake` is used off the loop thread.
    // Used by its loop's thread only: no dynamic exclusivity checks on each wait.
    private let kq: Int32
    @exclusivity(unchecked) private var buffer: [Darwin.kevent]
    @exclusivity(unchecked) private var watched = WatchedDescriptors()
    /// EVFILT_USER identifiers are their own namespace (the key is ident + filter): no clash with fd 0.
    private static let wakeIdent: UInt = 0

    init(capacity: Int = 256) throws {
        kq = kqueue()
        guard kq >= 0 else { throw ServerError.system(call: "kqueue", errno: errno) }
        Sys.setCloseOnExec(kq)
        buffer = Array(repeating: kevent(), count: max(2, capacity))
        // EV_CLEAR: the user event resets once reported, so one wake-up is reported once.
        var change = KqueuePoller.change(KqueuePoller.wakeIdent, Int16(EVFILT_USER), UInt16(EV_ADD | EV_CLEAR))
        guard kevent(kq, &change, 1, nil, 0, nil) == 0 else {
            let e = errno
            Sys.close(kq)
            throw ServerError.system(call: "kevent EVFILT_USER", errno: e)
        }
    }

    deinit {
        Sys.close(kq)
    }

    func add(_ fd: Int32, read: Bool, write: Bool) throws {
        guard fd >= 0 else { throw ServerError.system(call: "kevent add", errno: EBADF) }
        guard !watched.contains(fd) else { throw ServerError.system(call: "kevent add", errno: EEXIST) }
        try apply(fd, read: read, write: write, call: "kevent add")
        _ = watched.insert(fd)
    }

    func modify(_ fd: Int32, read: Bool, write: Bool) throws {
        // EV_ADD on an existing filter updates it, so add and modify are the same call; only
        // `watched` tells them apart (kevent would silently re-add a removed descriptor).
        guard watched.contains(fd) else { throw ServerError.system(call: "kevent modify", errno: ENOENT) }
        try apply(fd, read: read, write: write, call: "kevent modify")
    }

    func remove(_ fd: Int32) {
        guard watched.remove(fd) else { return }
        let ident = UInt(UInt32(bitPattern: fd))
        var changes = [KqueuePoller.change(ident, Int16(EVFILT_READ), UInt16(EV_DELETE)),
                       KqueuePoller.change(ident, Int16(EVFILT_WRITE), UInt16(EV_DELETE))]
        _ = kevent(kq, &changes, 2, nil, 0, nil)
    }

    func wait(timeoutMillis: Int32, into events: inout [PollEvent]) throws -> Int {
        events.removeAll(keepingCapacity: true)
        var timeout = timespec(tv_sec: Int(timeoutMillis / 1000), tv_nsec: Int(timeoutMillis % 1000) * 1_000_000)
        let n = buffer.withUnsafeMutableBufferPointer { list in
            timeoutMillis < 0
                ? kevent(kq, nil, 0, list.baseAddress, Int32(list.count), nil)
                : kevent(kq, nil, 0, list.baseAddress, Int32(list.count), &timeout)
        }
        if n < 0 {
            let e = errno
            if e == EINTR { return 0 }
            throw ServerError.system(call: "kevent", errno: e)
        }
        for i in 0..<Int(n) {
            let ev = buffer[i]
            let filter = Int32(ev.filter)
            if filter == EVFILT_USER { continue }
            let hangup = ev.flags & UInt16(EV_EOF) != 0 || ev.flags & UInt16(EV_ERROR) != 0
            events.append(PollEvent(fd: Int32(truncatingIfNeeded: ev.ident),
                                    readable: filter == EVFILT_READ,
                                    writable: filter == EVFILT_WRITE,
                                    hangup: hangup))
        }
        return events.count
    }

    func wake() {
        var change = KqueuePoller.change(KqueuePoller.wakeIdent, Int16(EVFILT_USER), 0, fflags: UInt32(NOTE_TRIGGER))
        _ = kevent(kq, &change, 1, nil, 0, nil)
    }

    private func apply(_ fd: Int32, read: Bool, write: Bool, call: String) throws {
        let ident = UInt(UInt32(bitPattern: fd))
        let on = UInt16(EV_ADD | EV_ENABLE), off = UInt16(EV_ADD | EV_DISABLE)
        var changes = [KqueuePoller.change(ident, Int16(EVFILT_READ), read ? on : off),
                       KqueuePoller.change(ident, Int16(EVFILT_WRITE), write ? on : off)]
        guard kevent(kq, &changes, 2, nil, 0, nil) == 0 else { throw ServerError.system(call: call, errno: errno) }
    }

    private static func change(_ ident: UInt, _ filter: Int16, _ flags: UInt16, fflags: UInt32 = 0) -> Darwin.kevent {
        Darwin.kevent(ident: ident, filter: filter, flags: flags, fflags: fflags, data: 0, udata: nil)
    }
}

// Checked line by line against apple-oss-distributions/xnu bsd/sys/event.h (read in full):
// - struct kevent { uintptr_t ident; int16_t filter; uint16_t flags; uint32_t fflags; intptr_t data;
//   void *udata; } → Swift kevent(ident: UInt, filter: Int16, flags: UInt16, fflags: UInt32,
//   data: Int, udata: UnsafeMutableRawPointer?); kevent() is the all-zero value.
// - int kevent(int kq, const struct kevent *changelist, int nchanges, struct kevent *eventlist,
//   int nevents, const struct timespec *timeout); int kqueue(void).
// - EVFILT_READ (-1), EVFILT_WRITE (-2), EVFILT_USER (-10): Int32 macros, narrowed to Int16.
// - EV_ADD 0x0001, EV_DELETE 0x0002, EV_ENABLE 0x0004, EV_DISABLE 0x0008, EV_CLEAR 0x0020,
//   EV_ERROR 0x4000, EV_EOF 0x8000: Int32 macros, narrowed to UInt16 (all fit).
// - NOTE_TRIGGER 0x01000000: Int32 macro, converted to UInt32 for fflags.
// - Without EV_CLEAR, EVFILT_READ/EVFILT_WRITE stay reported while ready (level-triggered).
// Cross-checked with swhitty/FlyingFox FlyingSocks/Sources/SocketPool+kQueue.swift and
// EventQueue+kQueue.swift, which build on macOS: the same `Darwin.kevent(ident:filter:flags:fflags:
// data:udata:)` initializer, `UInt16(EV_ADD | EV_ENABLE)`, `Int16(EVFILT_READ)`, `kevent(fd, &event,
// 1, nil, 0, nil)`, `Array(repeating: kevent(), count:)` and `Int32(event.filter)` comparisons.
#endif
