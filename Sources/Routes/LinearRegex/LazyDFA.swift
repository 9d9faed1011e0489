/// A DFA built while it runs, for the yes/no question "which patterns match the whole text?"
/// (as RE2, Go and Rust's regex do): a state is the set of NFA instructions the Pike VM would
/// hold at a position, and each (state, scalar class) transition is computed once, then read
/// from a table. Memory is bounded by `budget`: when a run would pass it, the cache is
/// emptied and the run answers nil, so the caller asks the Pike VM instead.
final class LazyDFA {
    /// What a state remembers of the scalar before it, for `^`, `(?m)^` and `\b`.
    private struct Context {
        static let atStart: UInt8 = 1
        static let afterWord: UInt8 = 2
        static let afterNewline: UInt8 = 4
    }

    private struct Key: Hashable {
        let pcs: [Int32]
        let context: UInt8
    }

    private let program: RegexProgram
    let budget: Int
    /// Scalars where the scalar class changes, ascending: class = how many are ≤ the scalar.
    private let boundaries: [UInt32]
    private let asciiClass: [UInt16]
    private let classCount: Int
    /// The context bits the program's assertions read.
    private let contextMask: UInt8

    /// Each state's instructions (consuming, `match`, and assertions that need the next scalar).
    private var statePCs: [[Int32]] = []
    private var contexts: [UInt8] = []
    /// The patterns matched when the text ends in the state; nil until first asked.
    private var accepted: [[Int32]?] = []
    private var index: [Key: Int32] = [:]
    /// `state × classCount + class` → state; -1 not computed yet. State 0 is dead (no thread left).
    private var transitions: [Int32] = []
    private var start: Int32 = -1
    /// Bytes the states and tables take, roughly.
    private(set) var memory = 0
    /// Transitions followed plus NFA instructions visited to build states (the cost of runs so far).
    var steps = 0
    /// How many times the cache was emptied for going over `budget`.
    private(set) var resets = 0

    private var seenDense: [Int32]
    private var seenSparse: [Int32]
    private var seenCount = 0
    private var stack: [Int32] = []

    init(_ program: RegexProgram, budget: Int) {
        self.program = program
        self.budget = budget
        var cuts: Set<UInt32> = [0x0A, 0x0B]
        for r in ScalarSet.word.ranges { cuts.insert(r.lowerBound); cuts.insert(r.upperBound + 1) }
        for set in program.sets {
            for r in set.ranges {
                cuts.insert(r.lowerBound)
                if r.upperBound < ScalarSet.maxScalar { cuts.insert(r.upperBound + 1) }
            }
        }
        for inst in program.instructions where inst.op == .scalar {
            cuts.insert(UInt32(bitPattern: inst.a))
            cuts.insert(UInt32(bitPattern: inst.a) + 1)
        }
        cuts.remove(0)
        boundaries = cuts.sorted()
        classCount = boundaries.count + 1
        var ascii = [UInt16](repeating: 0, count: 128)
        var k = 0
        for b in 0..<128 {
            while k < boundaries.count && boundaries[k] <= UInt32(b) { k += 1 }
            ascii[b] = UInt16(k)
        }
        asciiClass = ascii
        var mask: UInt8 = 0
        let has = { (kind: RegexAssertion) in program.assertions & (1 << kind.rawValue) != 0 }
        if has(.textStart) || has(.lineStart) { mask |= Context.atStart }
        if has(.lineStart) { mask |= Context.afterNewline }
        if has(.wordBoundary) || has(.notWordBoundary) { mask |= Context.afterWord }
        contextMask = mask
        seenDense = Array(repeating: 0, count: program.instructions.count)
        seenSparse = Array(repeating: 0, count: program.instructions.count)
        reset()
        resets = 0
    }

    /// Empties the cache (the dead state stays).
    func reset() {
        statePCs = [[]]
        contexts = [0]
        accepted = [[]]
        index = [:]
        transitions = Array(repeating: 0, count: classCount)
        start = -1
        memory = classCount * 4
        resets += 1
    }

    /// The patterns (ascending) that match the whole text; nil when the cache filled up (it is
    /// emptied: ask the Pike VM).
    func run(_ text: UTF8Text) -> [Int32]? {
        if start < 0 {
            guard let s = state(from: program.starts, after: nil) else { reset(); return nil }
            start = s
        }
        var s = start
        var position = 0
        let bytes = text.bytes
        while position < bytes.count {
            let byte = bytes[position]
            let value: UInt32
            let cl: Int
            if byte < 0x80 {
                value = UInt32(byte)
                cl = Int(asciiClass[Int(byte)])
                position += 1
            } else {
                guard let decoded = text.scalar(at: position) else { break }
                value = decoded.value
                cl = classOf(value)
                position += decoded.length
            }
            steps += 1
            var t = transitions[Int(s) * classCount + cl]
            if t < 0 {
                guard let made = transition(from: s, class: cl, value: value) else { reset(); return nil }
                t = made
            }
            if t == 0 { return [] }
            s = t
        }
        return accepting(s)
    }

    private func classOf(_ value: UInt32) -> Int {
        var low = 0, high = boundaries.count
        while low < high {
            let mid = (low + high) / 2
            if boundaries[mid] <= value { low = mid + 1 } else { high = mid }
        }
        return low
    }

    private func context(after value: UInt32?) -> UInt8 {
        guard let value else { return Context.atStart & contextMask }
        var c: UInt8 = 0
        if RegexAssertion.isWord(value) { c |= Context.afterWord }
        if value == 0x0A { c |= Context.afterNewline }
        return c & contextMask
    }

    /// A scalar standing for what `context` remembers (nil: the text's start).
    private func previous(in context: UInt8) -> UInt32? {
        if context & Context.atStart != 0 { return nil }
        if context & Context.afterNewline != 0 { return 0x0A }
        return context & Context.afterWord != 0 ? 0x61 : 0x20
    }

    // MARK: - Building states

    private func clearSeen() { seenCount = 0 }

    @inline(__always)
    private func markSeen(_ pc: Int32) -> Bool {
        let k = Int(seenSparse[Int(pc)])
        if k < seenCount && seenDense[k] == pc { return false }
        seenSparse[Int(pc)] = Int32(seenCount)
        seenDense[seenCount] = pc
        seenCount += 1
        return true
    }

    /// Follows `roots` through jumps, splits and saves into `out`. Assertions are decided from
    /// `previous` and `next`; with `next` unknown (`deferLookahead`), one that reads it is kept
    /// in `out` to decide at the next scalar. `match` is kept when `keepMatch`.
    private func closure(_ roots: [Int32], previous: UInt32?, next: UInt32?, deferLookahead: Bool, keepMatch: Bool, into out: inout [Int32]) {
        clearSeen()
        for root in roots.reversed() { stack.append(root) }
        while let pc = stack.popLast() {
            guard markSeen(pc) else { continue }
            steps += 1
            let inst = program.instructions[Int(pc)]
            switch inst.op {
            case .jump: stack.append(inst.a)
            case .split: stack.append(inst.b); stack.append(inst.a)
            case .save: stack.append(pc + 1)
            case .assert:
                guard let kind = RegexAssertion(rawValue: UInt8(inst.a)) else { continue }
                if deferLookahead && kind.looksAhead {
                    out.append(pc)
                } else if kind.holds(previous: previous, next: next) {
                    stack.append(pc + 1)
                }
            case .match: if keepMatch { out.append(pc) }
            case .scalar, .set: out.append(pc)
            }
        }
    }

    /// The state holding the closure of `roots` after `value` (nil: the start); nil when over budget.
    private func state(from roots: [Int32], after value: UInt32?) -> Int32? {
        var pcs: [Int32] = []
        closure(roots, previous: value, next: nil, deferLookahead: true, keepMatch: true, into: &pcs)
        if pcs.isEmpty { return 0 }
        pcs.sort()
        let key = Key(pcs: pcs, context: context(after: value))
        if let known = index[key] { return known }
        memory += pcs.count * 4 + classCount * 4 + 128
        if memory > budget { return nil }
        let s = Int32(statePCs.count)
        statePCs.append(pcs)
        contexts.append(key.context)
        accepted.append(nil)
        index[key] = s
        transitions.append(contentsOf: repeatElement(-1, count: classCount))
        return s
    }

    private func transition(from s: Int32, class cl: Int, value: UInt32) -> Int32? {
        var live: [Int32] = []
        // The deferred assertions are decided now that the next scalar is known.
        closure(statePCs[Int(s)], previous: previous(in: contexts[Int(s)]), next: value, deferLookahead: false, keepMatch: false, into: &live)
        var roots: [Int32] = []
        for pc in live {
            let inst = program.instructions[Int(pc)]
            steps += 1
            if inst.consumes && program.accepts(inst, value) { roots.append(pc + 1) }
        }
        guard let t = state(from: roots, after: value) else { return nil }
        transitions[Int(s) * classCount + cl] = t
        return t
    }

    /// The patterns matched if the text ends in state `s`.
    private func accepting(_ s: Int32) -> [Int32] {
        if let known = accepted[Int(s)] { return known }
        var reached: [Int32] = []
        closure(statePCs[Int(s)], previous: previous(in: contexts[Int(s)]), next: nil, deferLookahead: false, keepMatch: true, into: &reached)
        var ids: [Int32] = []
        for pc in reached where program.instructions[Int(pc)].op == .match { ids.append(program.instructions[Int(pc)].a) }
        ids.sort()
        accepted[Int(s)] = ids
        return ids
    }
}
