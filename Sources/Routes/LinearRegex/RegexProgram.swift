/// One instruction of a Thompson NFA program.
struct RegexInstruction: Sendable {
    enum Op: UInt8, Sendable {
        /// Consumes the scalar `a`.
        case scalar
        /// Consumes a scalar of `sets[a]`.
        case set
        /// Goes on at `a` and at `b`, `a` preferred.
        case split
        case jump
        /// Records the position in capture slot `a`.
        case save
        /// Goes on only where `RegexAssertion(rawValue: a)` holds.
        case assert
        /// Pattern `a` matched.
        case match
    }

    let op: Op
    var a: Int32
    var b: Int32

    init(_ op: Op, _ a: Int32 = 0, _ b: Int32 = 0) {
        self.op = op
        self.a = a
        self.b = b
    }

    /// Whether the instruction consumes a scalar.
    var consumes: Bool { op == .scalar || op == .set }
}

/// A compiled program: its instructions, the scalar sets they name, and where each pattern starts.
struct RegexProgram: Sendable {
    var instructions: [RegexInstruction] = []
    var sets: [ScalarSet] = []
    /// The first instruction of each pattern (one for a pattern, many for a set), in priority order.
    var starts: [Int32] = []
    /// Capture slots: two per group, group 0 (the whole match) included.
    var slotCount = 2
    /// Which assertions occur (bit `1 << rawValue`), so the DFA keeps only the context bits it needs.
    var assertions: UInt8 = 0

    /// Whether `value` is accepted by the consuming instruction `inst`.
    @inline(__always)
    func accepts(_ inst: RegexInstruction, _ value: UInt32) -> Bool {
        inst.op == .scalar ? UInt32(bitPattern: inst.a) == value : sets[Int(inst.a)].contains(value)
    }

    /// One program for many: each pattern's instructions shifted after the previous ones, its
    /// `match` renumbered to its index in `programs`.
    init(union programs: [RegexProgram]) {
        var setIndex: [ScalarSet: Int32] = [:]
        for program in programs {
            let base = Int32(instructions.count)
            let setMap = program.sets.map { set -> Int32 in
                if let k = setIndex[set] { return k }
                let k = Int32(sets.count)
                sets.append(set)
                setIndex[set] = k
                return k
            }
            let pattern = Int32(starts.count)
            for var inst in program.instructions {
                switch inst.op {
                case .split: inst.a += base; inst.b += base
                case .jump: inst.a += base
                case .set: inst.a = setMap[Int(inst.a)]
                case .match: inst.a = pattern
                case .scalar, .save, .assert: break
                }
                instructions.append(inst)
            }
            starts.append(base + (program.starts.first ?? 0))
            slotCount = max(slotCount, program.slotCount)
            assertions |= program.assertions
        }
    }

    init() {}
}
