import HTTPServer

/// The functions Jayway 2.7 has (`PathFunctionFactory`); `first()`, `last()` and `index()`
/// came in 2.8, so WireMock 2.35 fails every evaluation that calls them (`Token.unknownFunction`).
enum JSONPathFunction: String, Sendable {
    case avg, stddev, sum, min, max, concat, length, size, append, keys

    /// Whether the result is a Java Double (printed "3.0").
    var givesDouble: Bool {
        switch self {
        case .avg, .stddev, .sum, .min, .max: return true
        default: return false
        }
    }

    /// The function on `model` with its arguments' values (`Parameter.getValue()`), as Jayway
    /// computes it; `lengthOf` is `length(path)`'s count when the path gave one.
    func invoke(_ model: JSONValue, _ arguments: [JSONValue], lengthOf: Int?) throws(JSONPathFailure) -> JSONValue {
        switch self {
        case .length, .size:
            if let n = lengthOf { return .number(Double(n)) }
            switch model {
            case .array(let items): return .number(Double(items.count))
            case .object(let members): return .number(Double(members.count))
            default: return .null
            }
        case .keys:
            guard case .object(let members) = model else { return .null }
            var seen: [String] = []
            for m in members where !seen.contains(m.key) { seen.append(m.key) }
            return .array(seen.map(JSONValue.string))
        case .append:
            guard case .array(var items) = model else { return model }
            items += arguments
            return .array(items)
        case .concat:
            var out = ""
            if case .array(let items) = model { for case .string(let s) in items { out += s } }
            for argument in arguments {
                let values: [JSONValue]
                if case .array(let items) = argument { values = items } else { values = [argument] }
                for v in values { if let s = JSONPathValues.javaString(v, doubles: false) { out += s } }
            }
            return .string(out)
        case .avg, .stddev, .sum, .min, .max:
            var numbers: [Double] = []
            if case .array(let items) = model { for case .number(let d) in items { numbers.append(d) } }
            for argument in arguments {
                if case .array(let items) = argument { for case .number(let d) in items { numbers.append(d) } } else if case .number(let d) = argument { numbers.append(d) }
            }
            guard !numbers.isEmpty else { throw .failed("Aggregation function attempted to calculate value using empty array") }
            let sum = numbers.reduce(0, +), count = Double(numbers.count)
            switch self {
            case .sum: return .number(sum)
            case .avg: return .number(sum / count)
            case .min: return .number(numbers.reduce(Double.greatestFiniteMagnitude) { Swift.min($0, $1) })
            // Java's Double.MIN_VALUE (the least positive double) is where Jayway's max starts.
            case .max: return .number(numbers.reduce(Double.leastNonzeroMagnitude) { Swift.max($0, $1) })
            default:
                let squares = numbers.reduce(0) { $0 + $1 * $1 }
                return .number((squares / count - sum * sum / count / count).squareRoot())
            }
        }
    }
}

/// Why an evaluation stopped: Jayway's PathNotFoundException (`notFound`), an
/// InvalidPathException a filter swallows (`invalid`), another exception (`failed`), or the
/// step budget.
enum JSONPathFailure: Error {
    case notFound
    case invalid(String)
    case failed(String)
    case overBudget
}
