#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// Where log lines go: a bounded queue drained by one writer thread, so a slow or stuck reader
/// (stderr on a pipe nobody reads) never blocks an event loop. When the queue is full a line is
/// dropped and counted; the count is reported in the next line that fits.
///
/// Lines are written in batches, as nginx buffers its access log: the first line of a batch wakes
/// the writer, which then gathers the lines of the next `gatherWindow` (or until `highWater`
/// bytes) and writes them with one `write(2)`. Under load that is one wake-up and one write per
/// window instead of one per line or two, the kernel time that made the request log cost more
/// than the request; a person watching sees a line at most a window late.
package final class LogOutput: @unchecked Sendable {
    // Guarded by `condition`; the writer thread is the only one that calls `write`. Queued lines
    // are bytes in one buffer (`pending`, `queued` lines); the writer swaps it with its emptied
    // batch buffer and writes the whole batch at once, so neither side allocates in steady state.
    private let condition = Condition()
    // Touched only under `condition`'s lock, so the runtime's exclusivity checks (two a line) are off.
    @exclusivity(unchecked) private var pending = LogBytes(capacity: 4096)
    @exclusivity(unchecked) private var queued = 0
    @exclusivity(unchecked) private var clock = LogClock()
    @exclusivity(unchecked) private var pendingDrops = 0
    private var dropped = 0
    private var busy = false
    /// The writer sleeps until woken (no batch begun): the next line wakes it.
    private var writerIdle = false
    /// The writer is gathering a batch: only the high-water mark (or a flush, a close) wakes it.
    private var gathering = false
    /// Callers waiting in `flush`: the writer writes at once and tells them when it has.
    private var flushers = 0
    private var closed = false
    /// How long the writer gathers lines after the first one of a batch.
    let gatherWindow: Double
    /// A batch this big is written without waiting for the rest of the window.
    static let highWater = 64 * 1024
    private let write: @Sendable (UnsafeBufferPointer<UInt8>) -> Void
    /// Lines the queue holds at most.
    package let capacity: Int

    /// The process's standard error (created on first use).
    package static let standardError = LogOutput(lineCapacity: 8192, gatherWindow: 0.05, bytes: { LogOutput.writeAll($0, to: 2) })

    /// `write` is called on the writer thread with one or more whole lines.
    /// `gatherWindow` seconds (0: none) of lines go out together.
    package convenience init(capacity: Int = 8192, gatherWindow: Double = 0, write: @escaping @Sendable (String) -> Void) {
        self.init(lineCapacity: capacity, gatherWindow: gatherWindow, bytes: { write(String(decoding: $0, as: UTF8.self)) })
    }

    /// `bytes` is called on the writer thread with one or more whole lines (UTF-8).
    init(lineCapacity capacity: Int, gatherWindow: Double = 0, bytes: @escaping @Sendable (UnsafeBufferPointer<UInt8>) -> Void) {
        self.capacity = max(2, capacity)
        self.gatherWindow = max(0, gatherWindow)
        self.write = bytes
        DetachedThread.start(name: "mock-server log writer") { [self] in run() }
    }

    /// Lines dropped so far because the queue was full.
    package var droppedCount: Int {
        condition.lock()
        defer { condition.unlock() }
        return dropped
    }

    /// Queues `line`, or drops and counts it when the queue is full; never blocks on the reader.
    /// `notice` formats the "N log lines dropped" line put in front of it after drops.
    func enqueue(_ line: String, notice: (Int) -> String) {
        enqueue(notice: notice) { buffer, _ in buffer.append(line) }
    }

    /// Queues the line `format` appends to the queue's buffer (under the lock, so the line goes
    /// straight into the batch with no copy; `format` is not called when the line is dropped).
    @inline(__always)
    func enqueue(notice: (Int) -> String, _ format: (inout LogBytes, inout LogClock) -> Void) {
        condition.lock()
        defer { condition.unlock() }
        guard !closed, queued < capacity else {
            pendingDrops += 1
            dropped += 1
            return
        }
        if pendingDrops > 0 {
            guard queued + 1 < capacity else {
                pendingDrops += 1
                dropped += 1
                return
            }
            pending.append(notice(pendingDrops))
            queued += 1
            pendingDrops = 0
        }
        format(&pending, &clock)
        queued += 1
        // Wake the writer only when it sleeps with no batch begun, or when a batch being gathered
        // is full (a busy writer looks at the queue again by itself); broadcast, since flushers
        // wait on the same condition and a signal could wake one of them.
        if writerIdle || (gathering && pending.count >= LogOutput.highWater) { condition.broadcast() }
    }

    /// Waits until everything queued so far is written, at most `timeout` seconds (a reader that
    /// never reads must not hold the process at exit). Drops not yet reported are reported first.
    @discardableResult
    package func flush(timeout: Double = 1, notice: ((Int) -> String)? = nil) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        if pendingDrops > 0, let notice, queued < capacity {
            pending.append(notice(pendingDrops))
            queued += 1
            pendingDrops = 0
        }
        flushers += 1
        defer { flushers -= 1 }
        condition.broadcast()
        let deadline = Date(timeIntervalSinceNow: timeout)
        while queued > 0 || busy {
            if !condition.wait(until: deadline) { return false }
        }
        return true
    }

    deinit { pending.free() }

    /// Stops the writer thread after it has written what is queued (tests make their own outputs).
    package func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }

    private func run() {
        var batch = LogBytes(capacity: 4096)
        defer { batch.free() }
        while true {
            condition.lock()
            while queued == 0 && !closed {
                writerIdle = true
                condition.wait()
                writerIdle = false
            }
            if queued == 0 && closed {
                condition.unlock()
                return
            }
            if gatherWindow > 0 {
                let deadline = Date(timeIntervalSinceNow: gatherWindow)
                gathering = true
                while !closed && flushers == 0 && pending.count < LogOutput.highWater {
                    if !condition.wait(until: deadline) { break }
                }
                gathering = false
            }
            // The loops fill the emptied buffer of the last batch while this one is written.
            swap(&batch, &pending)
            queued = 0
            busy = true
            condition.unlock()

            write(batch.bytes)
            batch.removeAll()

            condition.lock()
            busy = false
            if flushers > 0 { condition.broadcast() }
            condition.unlock()
        }
    }

    /// Writes `text` to `fd` now, whole (short writes retried), past the queue: the banner, a last message.
    package static func writeAll(_ text: String, to fd: Int32) {
        var text = text
        text.withUTF8 { writeAll($0, to: fd) }
    }

    /// One `write(2)` loop per batch: partial writes continued, EINTR retried, other errors
    /// (a closed pipe) end it, since there is nowhere left to report them.
    static func writeAll(_ buffer: UnsafeBufferPointer<UInt8>, to fd: Int32) {
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
/// `write(2)`, named apart from `LogOutput.write`.
private func systemWrite(_ fd: Int32, _ p: UnsafePointer<UInt8>, _ count: Int) -> Int {
    write(fd, p, count)
}
