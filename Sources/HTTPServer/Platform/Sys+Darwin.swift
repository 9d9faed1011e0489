#if canImport(Darwin)
import Darwin

// Darwin's side of `Sys`. Not compiled on Linux: checked by hand against the xnu headers (see the
// note at the end of this file).
extension Sys {
    /// SO_REUSEPORT on Darwin does not spread new connections over listeners (the last bound one
    /// gets them): use one listener and hand accepted sockets to the loops.
    static let reusePortSpreadsConnections = false

    /// `SOCK_STREAM` is a plain Int32 macro in Darwin's import.
    static let streamType = SOCK_STREAM

    /// Darwin has no MSG_NOSIGNAL flag on every SDK: sockets get SO_NOSIGPIPE instead.
    static let sendFlags: Int32 = 0

    /// Darwin's name for the idle time before the first keepalive probe (TCP_KEEPIDLE on Linux).
    static let keepIdleOption = TCP_KEEPALIVE

    /// OPEN_MAX (bsd/sys/syslimits.h, spelled out: the macro hides behind _DARWIN_C_SOURCE):
    /// setrlimit refuses an RLIMIT_NOFILE above it, and the hard limit is often "unlimited".
    static let fileLimitCap: rlim_t = 10240

    /// A TCP socket of `family`: close-on-exec and no-SIGPIPE set right after (no SOCK_CLOEXEC).
    static func streamSocket(family: Int32) -> Int32 {
        let fd = socket(family, SOCK_STREAM, 0)
        if fd >= 0 {
            setCloseOnExec(fd)
            setOption(fd, SOL_SOCKET, SO_NOSIGPIPE, 1)
        }
        return fd
    }

    /// accept, then the flags Linux's accept4 would set, plus SO_NOSIGPIPE (options are not inherited reliably).
    static func acceptConfigured(_ listener: Int32, _ address: UnsafeMutablePointer<sockaddr>, _ length: inout socklen_t) -> Int32 {
        let fd = Darwin.accept(listener, address, &length)
        if fd >= 0 {
            setNonBlocking(fd)
            setCloseOnExec(fd)
            setOption(fd, SOL_SOCKET, SO_NOSIGPIPE, 1)
        }
        return fd
    }

    static func getFileLimit(_ limit: inout rlimit) -> Int32 {
        getrlimit(RLIMIT_NOFILE, &limit)
    }

    static func setFileLimit(_ limit: inout rlimit) -> Int32 {
        setrlimit(RLIMIT_NOFILE, &limit)
    }

    /// fsync on Darwin leaves data in the drive's cache; F_FULLFSYNC (51, bsd/sys/fcntl.h:
    /// "fsync + ask the drive to flush to the media") does not. Some file systems refuse it:
    /// then plain fsync.
    static func flushToStorage(_ fd: Int32) -> Int32 {
        fcntl(fd, 51, 0) == 0 ? 0 : fsync(fd)
    }

    /// Nothing to do: Darwin's allocator returns freed pages to the system by itself.
    static func releaseFreeMemory() {}
}

// Checked by reading apple-oss-distributions/xnu: bsd/sys/socket.h SOCK_STREAM 1, SOL_SOCKET
// 0xffff, SO_REUSEADDR 0x0004, SO_KEEPALIVE 0x0008, SO_REUSEPORT 0x0200, SO_NOSIGPIPE 0x1022,
// SO_LINGER 0x0080 (in ticks, not seconds: only ever set to 0 here, for a reset), struct linger
// { int l_onoff; int l_linger; }, struct sockaddr_storage { __uint8_t ss_len; sa_family_t
// ss_family; … } (so `Int32(ss_family)` in Sys.address works); bsd/netinet/tcp.h TCP_NODELAY
// 0x01, TCP_KEEPALIVE 0x10 ("idle time used when SO_KEEPALIVE is enabled", seconds);
// bsd/sys/syslimits.h OPEN_MAX 10240; bsd/sys/fcntl.h F_FULLFSYNC 51 (spelled out like OPEN_MAX,
// called through the overlay's three-argument `fcntl(Int32, Int32, Int32)` as setNonBlocking does). Macros without a cast import as Int32, the type
// setsockopt/socket take, so none needs converting. Swift code on Darwin using these exact calls:
// FlyingFox Socket+Darwin.swift (`Int32(SOCK_STREAM)`, `Darwin.accept`, `Darwin.listen`) and
// public code calling `setsockopt(fd, Int32(IPPROTO_TCP), TCP_KEEPALIVE, …)` and
// `setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, …)` (found with the code search).
#endif
