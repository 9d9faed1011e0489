/// A network namespace of the test's own, for the few tests that need a non-loopback peer: the
/// calling thread enters a new namespace (`unshare(CLONE_NEWNET)`, root only), brings its loopback
/// up and gives it a second address from 192.0.2.0/24 (TEST-NET-1, documentation only). Sockets
/// made inside stay there, whichever thread later uses them; no packet can leave the namespace,
/// and the thread returns to its own namespace afterwards (threads it started meanwhile do not:
/// tests call it through `runInChild`, in a process of its own). Linux only: Darwin has no equivalent.
/// The type and its address exist on every platform, since tests name them outside any `#if`;
/// only making the namespace is Linux's.
package enum PrivateNetwork {
    /// The non-loopback address the namespace's loopback carries.
    package static let address = "192.0.2.1"
}

#if os(Linux)
import Glibc

extension PrivateNetwork {
    /// Why the namespace could not be made (the caller turns it into a skip).
    package struct Unavailable: Error, CustomStringConvertible {
        package let description: String
    }

    /// The thread could not go back to its own namespace: a failure, never a skip, since the
    /// tests that run on this thread afterwards would run inside the private one.
    struct Stranded: Error, CustomStringConvertible {
        package let description: String
    }

    private static let cloneNewNet: Int32 = 0x4000_0000
    private typealias Unshare = @convention(c) (Int32) -> Int32
    private typealias SetNS = @convention(c) (Int32, Int32) -> Int32

    /// Runs `body` on this thread inside the namespace; throws `Unavailable` before `body` runs
    /// when the namespace cannot be made (not root, no /proc, a kernel without namespaces).
    package static func run<T>(_ body: () throws -> T) throws -> T {
        // Glibc declares unshare and setns only under _GNU_SOURCE, which Swift's Glibc module lacks.
        let libc = dlopen(nil, RTLD_NOW)
        guard let unshareSymbol = dlsym(libc, "unshare"), let setnsSymbol = dlsym(libc, "setns") else {
            throw Unavailable(description: "this C library has no unshare/setns")
        }
        let unshare = unsafeBitCast(unshareSymbol, to: Unshare.self)
        let setns = unsafeBitCast(setnsSymbol, to: SetNS.self)
        let original = open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC)
        guard original >= 0 else { throw Unavailable(description: "cannot open /proc/thread-self/ns/net (errno \(errno))") }
        defer { close(original) }
        guard unshare(cloneNewNet) == 0 else {
            throw Unavailable(description: "unshare(CLONE_NEWNET) failed (errno \(errno)): a network namespace needs root")
        }
        let outcome = Result { () throws -> T in
            try configure()
            return try body()
        }
        guard setns(original, cloneNewNet) == 0 else {
            throw Stranded(description: "could not return the thread to its network namespace (errno \(errno))")
        }
        return try outcome.get()
    }

    /// `ip link set lo up` and `ip addr add 192.0.2.1/24 dev lo label lo:1`, through ioctl.
    private static func configure() throws {
        let control = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        guard control >= 0 else { throw Unavailable(description: "socket() failed (errno \(errno))") }
        defer { close(control) }
        var flags = request(interface: "lo")
        guard ioctl(control, UInt(SIOCGIFFLAGS), &flags) == 0 else { throw Unavailable(description: "SIOCGIFFLAGS lo: errno \(errno)") }
        flags.ifr_ifru.ifru_flags |= Int16(IFF_UP | IFF_RUNNING)
        guard ioctl(control, UInt(SIOCSIFFLAGS), &flags) == 0 else { throw Unavailable(description: "SIOCSIFFLAGS lo: errno \(errno)") }
        var alias = request(interface: "lo:1")
        var sin = sockaddr_in()
        sin.sin_family = sa_family_t(AF_INET)
        guard inet_pton(AF_INET, address, &sin.sin_addr) == 1 else { throw Unavailable(description: "bad address \(address)") }
        withUnsafeMutableBytes(of: &alias.ifr_ifru) { target in
            withUnsafeBytes(of: sin) { target.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0.prefix(target.count))) }
        }
        guard ioctl(control, UInt(SIOCSIFADDR), &alias) == 0 else { throw Unavailable(description: "SIOCSIFADDR lo:1 \(address): errno \(errno)") }
    }

    private static func request(interface: String) -> ifreq {
        var request = ifreq()
        withUnsafeMutableBytes(of: &request.ifr_ifrn.ifrn_name) { name in
            for (i, byte) in interface.utf8.prefix(name.count - 1).enumerated() { name[i] = byte }
        }
        return request
    }
}
#endif
