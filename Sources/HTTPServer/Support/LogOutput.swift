import Foundation
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// Where log lines go: a bounded queue drained by one writer thread, so a slow or stuck reader
/// (stderr on a pipe nobody reads) never blocks an event loop. When the queue is full a line is
/// dropped and counted; the count is reported in the next line that fits.
public final class LogOutput: @unchecked Sendable {
    // Guarded by `condition`; the writer thread is the only one that calls `write`.
    private let condition = NSCondition()
    private var queue: [String] = []
    private var pendingDrops = 0
    private var dropped = 0
    private var busy = false
    private var writerWaiting = false
    private var closed = false
    private let write: @Sendable (String) -> Void
    /// Lines the queue holds at most.
    public let capacity: Int

    /// The process's standard error (created on first use).
    public static let standardError = LogOutput { LogOutput.writeAll($0, to: 2) }

    /// `write` is called on the writer thread with one or more whole lines.
    public init(capacity: Int = 8192, write: @escaping @Sendable (String) -> Void) {
        self.capacity = max(2, capacity)
        self.write = write
        let thread = Thread { [self] in run() }
        thread.name = "mock-server log writer"
        thread.start()
    }

    /// Lines dropped so far because the queue was full.
    public var droppedCount: Int {
        condition.lock()
        defer { condition.unlock() }
        return dropped
    }

    /// Queues `line`, or drops and counts it when the queue is full; never blocks on the reader.
    /// `notice` formats the "N log lines dropped" line put in front of it after drops.
    func enqueue(_ line: String, notice: (Int) -> String) {
        condition.lock()
        defer { condition.unlock() }
        guard !closed, queue.count < capacity else {
            pendingDrops += 1
            dropped += 1
            return
        }
        if pendingDrops > 0 {
            guard queue.count + 1 < capacity else {
                pendingDrops += 1
                dropped += 1
                return
            }
            queue.append(notice(pendingDrops))
            pendingDrops = 0
        }
        queue.append(line)
        // Wake the writer only when it sleeps (a busy writer looks at the queue again by itself);
        // broadcast, since flushers wait on the same condition and a signal could wake one of them.
        if writerWaiting { condition.broadcast() }
    }

    /// Waits until everything queued so far is written, at most `timeout` seconds (a reader that
    /// never reads must not hold the process at exit). Drops not yet reported are reported first.
    @discardableResult
    public func flush(timeout: Double = 1, notice: ((Int) -> String)? = nil) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        if pendingDrops > 0, let notice, queue.count < capacity {
            queue.append(notice(pendingDrops))
            pendingDrops = 0
        }
        condition.broadcast()
        let deadline = Date(timeIntervalSinceNow: timeout)
        while !queue.isEmpty || busy {
            if !condition.wait(until: deadline) { return false }
        }
        return true
    }

    /// Stops the writer thread after it has written what is queued (tests make their own outputs).
    public func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }

    private func run() {
        while true {
            condition.lock()
            while queue.isEmpty && !closed {
                writerWaiting = true
                condition.wait()
                writerWaiting = false
            }
            if queue.isEmpty && closed {
                condition.unlock()
                return
            }
            let batch = queue
            queue.removeAll(keepingCapacity: true)
            busy = true
            condition.unlock()

            write(batch.count == 1 ? batch[0] : batch.joined())

            condition.lock()
            busy = false
            condition.broadcast()
            condition.unlock()
        }
    }

    /// One `write(2)` loop per batch: partial writes continued, EINTR retried, other errors
    /// (a closed pipe) end it, since there is nowhere left to report them.
    static func writeAll(_ text: String, to fd: Int32) {
        var text = text
        text.withUTF8 { buffer in
            guard var p = buffer.baseAddress else { return }
            var left = buffer.count
            while left > 0 {
                let n = systemWrite(fd, p, left)
                if n < 0 {
                    if errno == EINTR { continue }
                    return
                }
                p += n
                left -= n
            }
        }
    }
}

/// `write(2)`, named apart from `LogOutput.write`.
private func systemWrite(_ fd: Int32, _ p: UnsafePointer<UInt8>, _ count: Int) -> Int {
    write(fd, p, count)
}
