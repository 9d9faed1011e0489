// The platform seam, readiness half. An event loop owns one `Poller` and asks it which descriptors
// are ready; every other OS call of the transport goes through `Sys` (Sys.swift).
//
//   let poller = try PollerKind.platformDefault.make()     // or configuration.poller.make()
//   try poller.add(fd, read: true, write: false)           // level-triggered interest
//   try poller.modify(fd, read: false, write: true)        // replaces the interest
//   poller.remove(fd)                                      // before closing fd
//   let n = try poller.wait(timeoutMillis: 250, into: &events)  // events[0..<n]; 0 on timeout or wake
//   poller.wake()                                          // any thread: the wait returns soon
//
// - Level-triggered: a descriptor stays reported while it is ready and its interest is on.
// - `hangup` (peer hung up, or the socket has an error): data can still be pending, so read until
//   recv returns 0 or an error, then remove and close. With no interest at all (a paused
//   connection) only epoll reports it: kqueue's filters are disabled then, and Darwin's poll(2)
//   registers nothing for `events: 0` (xnu poll_nocancel). A paused peer that goes away on a Mac
//   is closed by the send or idle timer instead.
// - `add` of a watched descriptor and `modify` of an unwatched one throw on every backend
//   (EEXIST, ENOENT); kqueue's EV_ADD would not, so KqueuePoller keeps `WatchedDescriptors`.
// - The poller's own wake-up descriptor is drained inside `wait` and never reported.
// - kqueue reports read and write readiness of one descriptor as two events.
// - A batch is a snapshot: a descriptor closed while handling it (or closed and reused by an accept)
//   can still appear later in the same batch. Look the fd up again and treat readiness as a hint
//   (a spurious one costs an EAGAIN; level-triggering brings a real one back).
// - One thread uses a poller; only `wake()` may be called from other threads.
//
// Backends: `EpollPoller` (Linux, default there), `KqueuePoller` (Darwin, default there) and
// `PollPoller` (portable poll(2), both systems: what CI runs to exercise the shared code).

/// One ready descriptor, as a `Poller` reports it.
struct PollEvent: Sendable, Equatable {
    var fd: Int32
    var readable: Bool
    var writable: Bool
    /// The peer hung up or the socket has an error (read it to find out which).
    var hangup: Bool
}

/// Level-triggered readiness of many descriptors for one event-loop thread.
protocol Poller: AnyObject, Sendable {
    /// Starts watching `fd` for the given readiness.
    func add(_ fd: Int32, read: Bool, write: Bool) throws
    /// Replaces the readiness watched for `fd` (both false: only hang-ups are reported).
    func modify(_ fd: Int32, read: Bool, write: Bool) throws
    /// Stops watching `fd`; call before closing it. Unknown descriptors are ignored.
    func remove(_ fd: Int32)
    /// Waits up to `timeoutMillis` (-1: forever) for readiness or a `wake()`; replaces the contents
    /// of `events` with what is ready and returns its count (0 on timeout, wake-up or EINTR).
    func wait(timeoutMillis: Int32, into events: inout [PollEvent]) throws -> Int
    /// Makes a concurrent or the next `wait` return promptly. Safe from any thread.
    func wake()
}

/// Which readiness mechanism the event loops use (`--poller`, `MOCK_POLLER`).
package enum PollerKind: String, Sendable, CaseIterable {
    /// Linux epoll with an eventfd wake-up.
    case epoll
    /// BSD/Darwin kqueue with an EVFILT_USER wake-up.
    case kqueue
    /// Portable poll(2) with a self-pipe wake-up; O(connections) per wait.
    case poll

    /// The best this operating system has: epoll on Linux, kqueue on Darwin.
    package static var platformDefault: PollerKind {
        #if canImport(Darwin)
        return .kqueue
        #else
        return .epoll
        #endif
    }

    /// Whether this operating system has the mechanism.
    package var isAvailable: Bool {
        switch self {
        case .poll: return true
        case .epoll:
            #if os(Linux)
            return true
            #else
            return false
            #endif
        case .kqueue:
            #if canImport(Darwin)
            return true
            #else
            return false
            #endif
        }
    }

    /// A new poller of this kind; throws `ServerError.pollerUnavailable` where the OS lacks it.
    func make() throws -> any Poller {
        switch self {
        case .poll:
            return try PollPoller()
        case .epoll:
            #if os(Linux)
            return try EpollPoller()
            #else
            throw ServerError.pollerUnavailable(self)
            #endif
        case .kqueue:
            #if canImport(Darwin)
            return try KqueuePoller()
            #else
            throw ServerError.pollerUnavailable(self)
            #endif
        }
    }
}
