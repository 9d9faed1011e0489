/// The loop's record of one client socket: the descriptor, its protocol machine and what the
/// poller watches. Owned by exactly one event loop and touched only on its thread.
final class Connection {
    let fd: Int32
    // Loop-thread only: no dynamic exclusivity checks (see ConnectionMachine).
    let machine: ConnectionMachine
    @exclusivity(unchecked) var watchingRead = true
    @exclusivity(unchecked) var watchingWrite = false
    /// The last send would have blocked: write again when the poller says writable.
    @exclusivity(unchecked) var writeBlocked = false
    /// The release time a loop timer is set for (0: none).
    @exclusivity(unchecked) var timerAt: UInt64 = 0
    /// Listed for one reconcile after the mailbox's commands have all been applied.
    @exclusivity(unchecked) var reconcileQueued = false

    /// Holds one of the slots kept for `reservedPaths`, not a place in the connection table.
    let onReservedSlot: Bool

    init(fd: Int32, machine: ConnectionMachine, onReservedSlot: Bool = false) {
        self.fd = fd
        self.machine = machine
        self.onReservedSlot = onReservedSlot
    }
}
