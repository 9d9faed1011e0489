/// One `Server.replaceResponder` on its way to the loops: the new responder, and the loops that
/// have not taken it yet. The last one to take it runs `applied`.
final class ResponderSwap: Sendable {
    let responder: Responder
    private let remaining: Locked<Int>
    private let applied: @Sendable () -> Void

    init(responder: Responder, loops: Int, applied: @escaping @Sendable () -> Void) {
        self.responder = responder
        remaining = Locked(loops)
        self.applied = applied
        if loops == 0 { applied() }
    }

    /// One loop answers with it from now on (or has stopped and answers nothing more).
    func loopTookIt() {
        let done = remaining.withLock { n -> Bool in
            n -= 1
            return n == 0
        }
        if done { applied() }
    }
}
