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

    /// Runs `body` on a new thread named `name` (Linux keeps the first 15 bytes). Default
    /// attributes: Darwin gives such a thread a 512 KiB stack, glibc `ulimit -s` (usually 8 MiB),
    /// so nothing run here may recurse deeply (docs/darwin-differences.md).
    package static func start(name: String, _ body: @escaping @Sendable () -> Void) {
        let context = Unmanaged.passRetained(Start(name: name, body: body)).toOpaque()
        #if canImport(Darwin)
        var thread: pthread_t?
        #else
        var thread = pthread_t()
        #endif
        let result = pthread_create(&thread, nil, { raw in
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
