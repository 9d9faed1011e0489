#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A mutex that is only ever tried, never waited for: a thread that finds a pattern's DFA cache
/// busy runs the Pike VM instead of queueing behind another thread's match.
final class TryLock: @unchecked Sendable {
    // The mutex needs a stable address, so it lives in its own allocation.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    init() {
        mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` if the lock is free now; nil if another thread holds it.
    func ifAvailable<R>(_ body: () -> R) -> R? {
        guard pthread_mutex_trylock(mutex) == 0 else { return nil }
        defer { pthread_mutex_unlock(mutex) }
        return body()
    }
}

/// A lazily made DFA shared by the threads that match one compiled pattern (or set), guarded
/// by a `TryLock`: only the thread holding the lock reads or grows it.
final class SharedDFA: @unchecked Sendable {
    private let lock = TryLock()
    // Touched only inside `lock` (hence @unchecked Sendable).
    private var dfa: LazyDFA?
    private let program: RegexProgram
    private let budget: Int

    init(_ program: RegexProgram, budget: Int) {
        self.program = program
        self.budget = budget
    }

    /// The DFA's answer, or nil when another thread holds the cache or the cache filled up.
    func run(_ text: UTF8Text, steps: inout Int) -> [Int32]? {
        let result: ([Int32]?, Int)? = lock.ifAvailable {
            let machine = dfa ?? LazyDFA(program, budget: budget)
            dfa = machine
            let before = machine.steps
            let ids = machine.run(text)
            return (ids, machine.steps - before)
        }
        guard let result else { return nil }
        steps += result.1
        return result.0
    }
}
