// The Darwin module as the Darwin view sees it: Glibc, plus what Darwin has and Glibc lacks
// (CDarwin, transcribed from xnu's headers), plus Darwin's shape of the few names both have but
// import differently. A declaration here shadows Glibc's one where Glibc is visible only through
// this module (a file that imports Darwin and not Foundation); next to Foundation, which re-exports
// Glibc on Linux, the two are overloads and the context picks. Sources: apple-oss-distributions/xnu
// at e3723e1f, apple-oss-distributions/libpthread at 42d026d. Bodies exist only so test binaries link.
@_exported import Glibc
@_exported import CDarwin

/// bsd/sys/socket.h:113 `#define SOCK_STREAM 1` (Glibc's is an enum, `__socket_type`).
public var SOCK_STREAM: Int32 { 1 }

/// bsd/sys/resource.h:515 `#define RLIMIT_NOFILE 8` (Glibc's is an enum, `__rlimit_resource`).
public var RLIMIT_NOFILE: Int32 { 8 }

/// libpthread include/pthread/pthread.h:338-341, inside its assume_nonnull region (line 102); Swift's
/// importer defines SWIFT_SDK_OVERLAY_PTHREAD_EPOCH=1, so `_PTHREAD_SWIFT_IMPORTER_NULLABILITY_COMPAT()`
/// (line 196) is false and this is the declaration it imports. pthread_t stays Glibc's integer here
/// (a pointer on Darwin): the optional out-parameter is the shape that matters to the caller.
public func pthread_create(
    _ thread: UnsafeMutablePointer<pthread_t?>,
    _ attr: UnsafePointer<pthread_attr_t>?,
    _ start: @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer?,
    _ arg: UnsafeMutableRawPointer?
) -> Int32 { fatalError("Darwin stand-in: built, never run") }

/// libpthread include/pthread/pthread.h:535 `int pthread_setname_np(const char*);` (the calling
/// thread's name; Glibc's takes the thread too and its module leaves it out).
public func pthread_setname_np(_ name: UnsafePointer<CChar>) -> Int32 { fatalError("Darwin stand-in: built, never run") }

extension stat {
    /// bsd/sys/stat.h:204 `struct timespec st_mtimespec;` (Glibc's field is `st_mtim`).
    public var st_mtimespec: timespec {
        get { st_mtim }
        set { st_mtim = newValue }
    }

    /// bsd/sys/stat.h:205 `struct timespec st_ctimespec;` (Glibc's field is `st_ctim`).
    public var st_ctimespec: timespec {
        get { st_ctim }
        set { st_ctim = newValue }
    }
}

/// libpthread include/pthread/pthread.h:375 `int pthread_key_create(pthread_key_t *, void (* _Nullable)(void *));`
/// inside the assume_nonnull region: the destructor takes a non-optional pointer (Glibc's an optional one).
public func pthread_key_create(
    _ key: UnsafeMutablePointer<pthread_key_t>,
    _ destructor: (@convention(c) (UnsafeMutableRawPointer) -> Void)?
) -> Int32 { fatalError("Darwin stand-in: built, never run") }
