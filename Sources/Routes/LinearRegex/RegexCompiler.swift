/// Compiles a `RegexNode` to a Thompson NFA program: `save 0`, the pattern, `save 1`, `match 0`.
/// Repetitions are unrolled, so the size is checked before anything is emitted.
struct RegexCompiler {
    /// Programs above this many instructions are refused: matching costs text length × size.
    static let maxInstructions = 20_000

    private var program = RegexProgram()
    private var setIndex: [ScalarSet: Int32] = [:]

    static func compile(_ node: RegexNode, groups: Int) throws(RegexSyntaxError) -> RegexProgram {
        let size = RegexCompiler.size(of: node) + 4
        if size > maxInstructions {
            throw RegexSyntaxError(message: "the pattern compiles to more than \(maxInstructions) instructions (about \(size)): use smaller repetition counts", offset: 0,
                                   isRefusedConstruct: true)
        }
        var compiler = RegexCompiler()
        compiler.program.instructions.reserveCapacity(size)
        compiler.program.slotCount = 2 * (groups + 1)
        compiler.program.starts = [0]
        compiler.emit(.init(.save, 0))
        compiler.compile(node)
        compiler.emit(.init(.save, 1))
        compiler.emit(.init(.match, 0))
        return compiler.program
    }

    /// Instructions `node` compiles to (saturating, so a huge repetition cannot overflow).
    static func size(of node: RegexNode) -> Int {
        let cap = maxInstructions * 4
        switch node {
        case .empty: return 0
        case .set, .assertion: return 1
        case .concat(let items): return min(cap, items.reduce(0) { $0 + size(of: $1) })
        case .alternate(let items): return min(cap, items.reduce(0) { $0 + size(of: $1) + 2 })
        case .capture(let body, _, _): return min(cap, size(of: body) + 2)
        case .repeat_(let body, let low, let high, _):
            let one = size(of: body)
            let copies = high.map { $0 } ?? (low + 1)
            return min(cap, copies * (one + 2) + 2)
        }
    }

    private var here: Int32 { Int32(program.instructions.count) }

    @discardableResult
    private mutating func emit(_ inst: RegexInstruction) -> Int32 {
        program.instructions.append(inst)
        return here - 1
    }

    private mutating func compile(_ node: RegexNode) {
        switch node {
        case .empty: break
        case .set(let set): compileSet(set)
        case .concat(let items):
            for item in items { compile(item) }
        case .alternate(let items): compileAlternation(items)
        case .capture(let body, let index, _):
            emit(.init(.save, Int32(2 * index)))
            compile(body)
            emit(.init(.save, Int32(2 * index + 1)))
        case .assertion(let kind):
            program.assertions |= 1 << kind.rawValue
            emit(.init(.assert, Int32(kind.rawValue)))
        case .repeat_(let body, let low, let high, let lazy):
            compileRepeat(body, low: low, high: high, lazy: lazy)
        }
    }

    // The cases below are out of line so the frame `compile` recurses with stays small
    // (a nesting level costs one frame; Darwin's secondary threads have 512 KiB stacks).
    @inline(never)
    private mutating func compileSet(_ set: ScalarSet) {
        if let single = set.single {
            emit(.init(.scalar, Int32(bitPattern: single)))
            return
        }
        let k: Int32
        if let known = setIndex[set] { k = known } else {
            k = Int32(program.sets.count)
            program.sets.append(set)
            setIndex[set] = k
        }
        emit(.init(.set, k))
    }

    @inline(never)
    private mutating func compileAlternation(_ items: [RegexNode]) {
        var jumps: [Int32] = []
        for (n, item) in items.enumerated() {
            if n == items.count - 1 {
                compile(item)
            } else {
                let split = emit(.init(.split))
                program.instructions[Int(split)].a = here
                compile(item)
                jumps.append(emit(.init(.jump)))
                program.instructions[Int(split)].b = here
            }
        }
        for j in jumps { program.instructions[Int(j)].a = here }
    }

    @inline(never)
    private mutating func compileRepeat(_ body: RegexNode, low: Int, high: Int?, lazy: Bool) {
        guard let high else {
            // x{n,}: n-1 copies, then one copy that loops back (x+), or x* when n is 0.
            if low == 0 {
                let split = emit(.init(.split))
                compile(body)
                emit(.init(.jump, split))
                setBranches(split, body: split + 1, out: here, lazy: lazy)
            } else {
                for _ in 0..<(low - 1) { compile(body) }
                let top = here
                compile(body)
                let split = emit(.init(.split))
                setBranches(split, body: top, out: here, lazy: lazy)
            }
            return
        }
        for _ in 0..<low { compile(body) }
        // x{n,m}: then m-n optional copies, each skipping to the end: x(x(x)?)?
        var splits: [Int32] = []
        for _ in 0..<(high - low) {
            let split = emit(.init(.split))
            splits.append(split)
            compile(body)
        }
        for split in splits { setBranches(split, body: split + 1, out: here, lazy: lazy) }
    }

    /// A split that prefers the body (greedy) or the way out (lazy).
    private mutating func setBranches(_ split: Int32, body: Int32, out: Int32, lazy: Bool) {
        program.instructions[Int(split)].a = lazy ? out : body
        program.instructions[Int(split)].b = lazy ? body : out
    }
}
