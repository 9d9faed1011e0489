#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// Starts a named, detached thread: what `Thread { … }.start()` does, without Foundation's
/// `Thread` (absent from FoundationEssentials, which the server uses on Linux to leave ICU out).
package enum DetachedThread {
    private final class Start {
        let name: String
        let body: @Sendable () -> Void
        init(name: String, body: @escaping @Sendable () -> Void) { self.name = name; self.body = body }
    }

    /// The stack every thread started here asks for. Left to the platform, Darwin gives a
    /// secondary thread 512 KiB and glibc `ulimit -s` (usually 8 MiB): one size makes a stub or
    /// body that parses on a Mac parse alike on Linux (docs/darwin-differences.md). The bounded
    /// recursions (JSON depth, regex nesting) fit in a quarter of it in a debug build.
    static let stackSize = 2 << 20

    /// Runs `body` on a new thread named `name` (Linux keeps the first 15 bytes), with a
    /// `stackSize` stack.
    package static func start(name: String, _ body: @escaping @Sendable () -> Void) {
        let context = Unmanaged.passRetained(Start(name: name, body: body)).toOpaque()
        #if canImport(Darwin)
        var thread: pthread_t?
        #else
        var thread = pthread_t()
        #endif
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        // A refused size (below PTHREAD_STACK_MIN, not a page multiple) leaves the default.
        _ = pthread_attr_setstacksize(&attributes, stackSize)
        let result = pthread_create(&thread, &attributes, { raw in
            // Optional on Darwin too: libpthread's pthread.h declares `void * _Nullable` for the
            // start routine's argument when Swift imports it (SWIFT_SDK_OVERLAY_PTHREAD_EPOCH=1).
            guard let raw else { return nil }
            let start = Unmanaged<Start>.fromOpaque(raw).takeRetainedValue()
            #if canImport(Darwin)
            _ = pthread_setname_np(start.name)
            #else
            // Glibc's module leaves pthread_setname_np out; the kernel takes the name here as well.
            let fd = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
            if fd >= 0 {
                let name = Array(start.name.utf8.prefix(15))
                _ = name.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
                close(fd)
            }
            #endif
            start.body()
            return nil
        }, context)
        guard result == 0 else {
            // Out of threads: run nothing rather than trap; the caller's work never starts, as a
            // failed Thread.start would leave it.
            Unmanaged<Start>.fromOpaque(context).release()
            return
        }
        #if canImport(Darwin)
        if let thread { pthread_detach(thread) }
        #else
        pthread_detach(thread)
        #endif
    }
}
