/// Runs a program over a text with Pike's VM: all threads advance together one scalar at a time,
/// each instruction at most once per position, so the work is at most (length + 1) × program
/// size, whatever the pattern. Threads are kept in priority order, so the match and its groups
/// are the ones a backtracking engine (Java's) would report.
struct PikeVM {
    enum Mode {
        /// The whole text (Java's `matches()`): a match counts only at the end.
        case whole
        /// The leftmost match, anywhere (Java's `find()`).
        case find
    }

    /// A sparse set of program counters, in insertion order, with each thread's capture slots
    /// (a class: the VM fills one list while it reads the other).
    private final class ThreadList {
        var dense: [Int32]
        var sparse: [Int32]
        var count = 0
        var slots: [Int]
        let width: Int

        init(size: Int, width: Int) {
            dense = Array(repeating: 0, count: size)
            sparse = Array(repeating: 0, count: size)
            slots = Array(repeating: -1, count: size * width)
            self.width = width
        }

        @inline(__always)
        func contains(_ pc: Int32) -> Bool {
            let k = Int(sparse[Int(pc)])
            return k < count && dense[k] == pc
        }

        /// Adds `pc`; its index in `dense`.
        @inline(__always)
        func insert(_ pc: Int32) -> Int {
            sparse[Int(pc)] = Int32(count)
            dense[count] = pc
            count += 1
            return count - 1
        }
    }

    private enum Work {
        case explore(Int32)
        case restore(slot: Int, value: Int)
    }

    let program: RegexProgram
    /// Instructions executed so far (each thread added or stepped counts one).
    private(set) var steps = 0
    /// Whether capture positions are tracked (not for a yes/no question).
    private let tracksSlots: Bool
    private var current: ThreadList
    private var next: ThreadList
    private var stack: [Work] = []
    private var scratch: [Int]

    init(_ program: RegexProgram, tracksSlots: Bool) {
        self.program = program
        self.tracksSlots = tracksSlots
        let width = tracksSlots ? program.slotCount : 0
        current = ThreadList(size: program.instructions.count, width: width)
        next = ThreadList(size: program.instructions.count, width: width)
        scratch = Array(repeating: -1, count: width)
    }

    /// Runs the program; the first (highest-priority) match's capture slots (byte offsets, -1
    /// for a group that took no part), or nil.
    mutating func run(_ text: UTF8Text, mode: Mode) -> [Int]? {
        var found: [Int]? = nil
        current.count = 0
        var position = 0
        var previous: UInt32? = nil
        var here = text.scalar(at: 0)
        while true {
            if found == nil && (position == 0 || mode == .find) {
                // A new thread at each position, after the older ones: leftmost match first.
                for k in 0..<scratch.count { scratch[k] = -1 }
                for start in program.starts { add(current, start, position, previous, here?.value) }
            }
            if current.count == 0 && (found != nil || mode == .whole || here == nil) { break }
            next.count = 0
            let after = here.flatMap { text.scalar(at: position + $0.length) }
            for k in 0..<current.count {
                let pc = current.dense[k]
                let inst = program.instructions[Int(pc)]
                steps += 1
                if inst.op == .match {
                    guard mode == .find || here == nil else { continue }
                    found = tracksSlots ? Array(current.slots[(k * current.width)..<((k + 1) * current.width)]) : []
                    // Lower-priority threads lose to this match.
                    break
                }
                guard inst.consumes, let scalar = here, program.accepts(inst, scalar.value) else { continue }
                if tracksSlots {
                    for s in 0..<scratch.count { scratch[s] = current.slots[k * current.width + s] }
                }
                add(next, pc + 1, position + scalar.length, scalar.value, after?.value)
            }
            swap(&current, &next)
            guard let scalar = here else { break }
            position += scalar.length
            previous = scalar.value
            here = after
        }
        return found
    }

    /// Every pattern (of a set) that matches the whole text, ascending.
    mutating func runAll(_ text: UTF8Text) -> [Int] {
        var matched: [Int] = []
        current.count = 0
        var position = 0
        var here = text.scalar(at: 0)
        for start in program.starts { add(current, start, 0, nil, here?.value) }
        while current.count > 0 {
            next.count = 0
            let after = here.flatMap { text.scalar(at: position + $0.length) }
            for k in 0..<current.count {
                let inst = program.instructions[Int(current.dense[k])]
                steps += 1
                if inst.op == .match {
                    if here == nil { matched.append(Int(inst.a)) }
                    continue
                }
                guard inst.consumes, let scalar = here, program.accepts(inst, scalar.value) else { continue }
                add(next, current.dense[k] + 1, position + scalar.length, scalar.value, after?.value)
            }
            swap(&current, &next)
            guard let scalar = here else { break }
            position += scalar.length
            here = after
        }
        return matched.sorted()
    }

    /// Follows `pc` through jumps, splits (preferred branch first), saves and assertions, adding
    /// every instruction reached to `list` once; consuming and match instructions keep `scratch`
    /// as their thread's slots.
    private mutating func add(_ list: ThreadList, _ pc: Int32, _ position: Int, _ previous: UInt32?, _ following: UInt32?) {
        stack.append(.explore(pc))
        while let work = stack.popLast() {
            switch work {
            case .restore(let slot, let value):
                scratch[slot] = value
            case .explore(let pc):
                if list.contains(pc) { continue }
                let k = list.insert(pc)
                steps += 1
                let inst = program.instructions[Int(pc)]
                switch inst.op {
                case .jump:
                    stack.append(.explore(inst.a))
                case .split:
                    stack.append(.explore(inst.b))
                    stack.append(.explore(inst.a))
                case .save:
                    let slot = Int(inst.a)
                    if tracksSlots && slot < scratch.count {
                        stack.append(.restore(slot: slot, value: scratch[slot]))
                        scratch[slot] = position
                    }
                    stack.append(.explore(pc + 1))
                case .assert:
                    if let kind = RegexAssertion(rawValue: UInt8(inst.a)), kind.holds(previous: previous, next: following) {
                        stack.append(.explore(pc + 1))
                    }
                case .scalar, .set, .match:
                    if tracksSlots {
                        for s in 0..<scratch.count { list.slots[k * list.width + s] = scratch[s] }
                    }
                }
            }
        }
    }
}
