/// The loop's record of one client socket: the descriptor, its protocol machine and what the
/// poller watches. Owned by exactly one event loop and touched only on its thread.
final class Connection {
    let fd: Int32
    let machine: ConnectionMachine
    var watchingRead = true
    var watchingWrite = false
    /// The last send would have blocked: write again when the poller says writable.
    var writeBlocked = false
    /// The release time a loop timer is set for (0: none).
    var timerAt: UInt64 = 0

    init(fd: Int32, machine: ConnectionMachine) {
        self.fd = fd
        self.machine = machine
    }
}
