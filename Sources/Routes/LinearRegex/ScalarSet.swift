/// A set of Unicode scalar values as sorted, disjoint, non-adjacent closed ranges: what one
/// consuming instruction accepts (a literal, a class, `.`), with the set algebra classes need.
struct ScalarSet: Hashable, Sendable {
    /// Sorted, disjoint and non-adjacent after `normalized()`.
    private(set) var ranges: [ClosedRange<UInt32>]

    static let maxScalar: UInt32 = 0x10FFFF

    init(_ ranges: [ClosedRange<UInt32>] = []) {
        self.ranges = ranges
        normalize()
    }

    init(scalar: UInt32) { ranges = [scalar...scalar] }

    var isEmpty: Bool { ranges.isEmpty }

    func contains(_ value: UInt32) -> Bool {
        // Binary search: classes from many patterns can hold many ranges.
        var low = 0, high = ranges.count
        while low < high {
            let mid = (low + high) / 2
            if ranges[mid].upperBound < value { low = mid + 1 } else { high = mid }
        }
        return low < ranges.count && ranges[low].lowerBound <= value
    }

    private mutating func normalize() {
        guard ranges.count > 1 else { return }
        ranges.sort { $0.lowerBound < $1.lowerBound }
        var out: [ClosedRange<UInt32>] = [ranges[0]]
        for r in ranges.dropFirst() {
            let last = out[out.count - 1]
            if r.lowerBound <= last.upperBound || r.lowerBound == last.upperBound &+ 1 {
                out[out.count - 1] = last.lowerBound...max(last.upperBound, r.upperBound)
            } else {
                out.append(r)
            }
        }
        ranges = out
    }

    func union(_ other: ScalarSet) -> ScalarSet { ScalarSet(ranges + other.ranges) }

    func inverted() -> ScalarSet {
        var out: [ClosedRange<UInt32>] = []
        var next: UInt32 = 0
        for r in ranges {
            if r.lowerBound > next { out.append(next...(r.lowerBound - 1)) }
            next = r.upperBound &+ 1
        }
        if ranges.last.map({ $0.upperBound < ScalarSet.maxScalar }) ?? true { out.append(next...ScalarSet.maxScalar) }
        return ScalarSet(out)
    }

    func intersection(_ other: ScalarSet) -> ScalarSet {
        // A ∩ B = ¬(¬A ∪ ¬B): small sets, compile time only.
        inverted().union(other.inverted()).inverted()
    }

    /// The set with every member's simple case variants added (`(?i)`). Ranges wider than
    /// `limit` scalars are taken as they are: they are classes like `[^x]` or `\u0000-\uFFFF`
    /// that hold most case pairs already, and walking them would make compiling costly.
    /// At most `limit` scalars are walked in all, so a class of many small ranges compiles quickly too.
    func caseFolded(limit: UInt32 = 0x3000) -> ScalarSet {
        var added: [ClosedRange<UInt32>] = []
        var walked: UInt32 = 0
        for r in ranges where r.upperBound - r.lowerBound < limit {
            walked += r.upperBound - r.lowerBound + 1
            if walked > limit { break }
            for value in r {
                for variant in ScalarSet.caseVariants(of: value) where !r.contains(variant) { added.append(variant...variant) }
            }
        }
        return added.isEmpty ? self : ScalarSet(ranges + added)
    }

    /// The other cases of one scalar (single-scalar mappings only, as simple case folding).
    static func caseVariants(of value: UInt32) -> [UInt32] {
        // ASCII first: no Unicode property lookup for the common case.
        if value < 0x80 {
            if value >= 0x41 && value <= 0x5A { return [value + 0x20] }
            if value >= 0x61 && value <= 0x7A { return [value - 0x20] }
            // ASCII folds within ASCII, as Java's case-insensitive matching does by default.
            return []
        }
        guard let scalar = Unicode.Scalar(value) else { return [] }
        let p = scalar.properties
        guard p.changesWhenCaseMapped else { return [] }
        var out: [UInt32] = []
        for mapped in [p.lowercaseMapping, p.uppercaseMapping, p.titlecaseMapping] {
            let scalars = mapped.unicodeScalars
            if scalars.count == 1, let first = scalars.first, first.value != value, !out.contains(first.value) { out.append(first.value) }
        }
        return out
    }

    // MARK: - The predefined classes (Java's, ASCII like Java's default)

    static let digit = ScalarSet([0x30...0x39])
    static let word = ScalarSet([0x30...0x39, 0x41...0x5A, 0x5F...0x5F, 0x61...0x7A])
    /// `\s`: space, `\t`, `\n`, `\x0B`, `\f`, `\r`.
    static let space = ScalarSet([0x09...0x0D, 0x20...0x20])
    /// `.` without `(?s)`: everything but Java's line terminators.
    static let notLineTerminator = ScalarSet([0x0A...0x0A, 0x0D...0x0D, 0x85...0x85, 0x2028...0x2029]).inverted()
    static let all = ScalarSet([0...maxScalar])

    /// The POSIX classes Java spells `\p{Name}` (ASCII, as Java's default).
    static let posix: [String: ScalarSet] = [
        "Lower": ScalarSet([0x61...0x7A]),
        "Upper": ScalarSet([0x41...0x5A]),
        "ASCII": ScalarSet([0...0x7F]),
        "Alpha": ScalarSet([0x41...0x5A, 0x61...0x7A]),
        "Digit": digit,
        "Alnum": ScalarSet([0x30...0x39, 0x41...0x5A, 0x61...0x7A]),
        "Punct": ScalarSet([0x21...0x2F, 0x3A...0x40, 0x5B...0x60, 0x7B...0x7E]),
        "Graph": ScalarSet([0x21...0x7E]),
        "Print": ScalarSet([0x20...0x7E]),
        "Blank": ScalarSet([0x09...0x09, 0x20...0x20]),
        "Cntrl": ScalarSet([0...0x1F, 0x7F...0x7F]),
        "XDigit": ScalarSet([0x30...0x39, 0x41...0x46, 0x61...0x66]),
        "Space": space,
    ]
}
