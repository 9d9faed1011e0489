#if os(Linux) && canImport(Glibc)
import Glibc
import CEpoll

/// Linux's side of `Sys`.
extension Sys {
    /// SO_REUSEPORT listeners share the connections of one port: one listener per loop works.
    static let reusePortSpreadsConnections = true

    /// `SOCK_STREAM` is an enum case in Glibc's Swift import.
    static let streamType = Int32(SOCK_STREAM.rawValue)

    /// Never SIGPIPE: the flag on every send.
    static let sendFlags = Int32(MSG_NOSIGNAL)

    /// Seconds of silence before the first keepalive probe.
    static let keepIdleOption = TCP_KEEPIDLE

    /// Enough descriptors for a million connections; more only costs the fd-indexed tables.
    static let fileLimitCap: rlim_t = 1 << 20

    /// A TCP socket of `family`, close-on-exec from birth.
    static func streamSocket(family: Int32) -> Int32 {
        socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    }

    /// accept, then non-blocking and close-on-exec: Linux's accepted sockets inherit neither (Glibc's
    /// Swift module does not export accept4).
    static func acceptConfigured(_ listener: Int32, _ address: UnsafeMutablePointer<sockaddr>, _ length: inout socklen_t) -> Int32 {
        let fd = Glibc.accept(listener, address, &length)
        if fd >= 0 {
            setNonBlocking(fd)
            setCloseOnExec(fd)
        }
        return fd
    }

    static func getFileLimit(_ limit: inout rlimit) -> Int32 {
        getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
    }

    static func setFileLimit(_ limit: inout rlimit) -> Int32 {
        setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
    }

    /// Hands freed heap pages back to the system: glibc keeps what a burst of connections freed.
    static func releaseFreeMemory() {
        _ = malloc_trim(0)
    }

    /// Data and metadata on the device (fsync is a full flush on Linux).
    static func flushToStorage(_ fd: Int32) -> Int32 {
        fsync(fd)
    }
}
#endif
