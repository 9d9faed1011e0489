#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Synchronous, race-free handling of SIGINT/SIGTERM (and SIGHUP), the same on Linux and Darwin.
///
/// `block` masks the signals in the calling thread; called first thing in `main`, before any
/// thread exists, every later thread inherits the mask, so a signal that arrives at any moment
/// after it stays pending instead of killing the process or being dropped. `start` then hands
/// pending and later signals, one by one, to a handler on a dedicated `sigwait` thread, where it
/// may do real work (log, `Server.shutdown()`). A dispatch signal source, installed asynchronously,
/// lost a SIGTERM sent right after the banner.
package final class SignalTrap: Sendable {
    private let signals: [Int32]

    private init(signals: [Int32]) {
        self.signals = signals
    }

    /// Blocks `signals` for this thread and the threads it starts from now on, and gives them
    /// their default disposition: a process started with one ignored (`nohup` ignores SIGHUP, a
    /// script's background job SIGINT) would never see it on a Mac, since xnu discards a signal
    /// whose disposition is `SIG_IGN` even while it is blocked (`bsd/kern/kern_sig.c:2124-2128`);
    /// Linux keeps a blocked one pending. Blocked first, so none can act on its default meanwhile.
    package static func block(_ signals: [Int32] = [SIGINT, SIGTERM]) -> SignalTrap {
        var set = signalSet(signals)
        _ = pthread_sigmask(SIG_BLOCK, &set, nil)
        for s in signals { _ = signal(s, SIG_DFL) }
        return SignalTrap(signals: signals)
    }

    /// A reader of the log that goes away (`mock-server 2>&1 | head -1`) must not kill the server:
    /// a write to the broken pipe then fails with EPIPE, which the log writer drops, as nginx does.
    /// Sockets need no such help (MSG_NOSIGNAL / SO_NOSIGPIPE); this is for the log and the banner.
    package static func ignoreBrokenPipes() {
        _ = signal(SIGPIPE, SIG_IGN)
    }

    /// Calls `handler` with each blocked signal as it arrives (or is already pending), on its own
    /// thread, for the life of the process.
    package func start(_ handler: @escaping @Sendable (Int32) -> Void) {
        let signals = signals
        DetachedThread.start(name: "mock-server-signals") {
            var set = SignalTrap.signalSet(signals)
            var received: Int32 = 0
            while true {
                if sigwait(&set, &received) == 0 { handler(received) }
            }
        }
    }

    /// The name of a signal this trap handles, for log lines.
    package static func name(_ signal: Int32) -> String {
        switch signal {
        case SIGINT: return "SIGINT"
        case SIGTERM: return "SIGTERM"
        case SIGHUP: return "SIGHUP"
        default: return "signal \(signal)"
        }
    }

    private static func signalSet(_ signals: [Int32]) -> sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        for s in signals { sigaddset(&set, s) }
        return set
    }
}
