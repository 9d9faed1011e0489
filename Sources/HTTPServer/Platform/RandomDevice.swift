/// The kernel's random device, read through `Sys` (for the mock's tokens and codes).
package final class RandomDevice: Sendable {
    private let fd: Int32

    /// Opens `/dev/urandom`; `isOpen` is false when there is none (a chroot).
    package init() { fd = Sys.openReadOnly("/dev/urandom") }

    deinit { if fd >= 0 { Sys.close(fd) } }

    package var isOpen: Bool { fd >= 0 }

    /// Fills the buffer; returns how many bytes were read (less than asked only on failure).
    package func fill(_ buffer: UnsafeMutableRawBufferPointer) -> Int {
        fd >= 0 ? Sys.readFully(fd, into: buffer) : 0
    }
}
