import HTTPServer

/// A JSONPath as Jayway's json-path 2.7 (the library WireMock 2.35 uses) compiles it: members,
/// indexes, slices, unions, wildcards, deep scans, filters `[?(…)]` and functions. The path is
/// compiled when the mapping is read; one Jayway rejects is refused there with Jayway's reason
/// (WireMock would take the mapping and never match it). Evaluation is in `JSONPath+Evaluate.swift`, bounded by a `StubBudget`.
struct JSONPath: Sendable {
    indirect enum Token: Sendable {
        /// `.a`, `['a']`, `['a','b']`.
        case properties([String])
        /// `[0]`, `[0,1]`, `[-1]`.
        case indexes([Int])
        /// `[1:3]`, `[-2:]`, `[:2]`.
        case slice(from: Int?, to: Int?)
        /// `*`, `[*]`.
        case wildcard
        /// `..`: what follows is looked for at every depth.
        case scan
        /// `[?(…)]`.
        case filter(JSONPathPredicate)
        /// `.length()`, `.sum(…)`.
        case function(JSONPathFunction, [Parameter])
        /// `.first()` or any other name Jayway 2.7 lacks (`first()`, `last()`, `index()` came in
        /// 2.8): Jayway compiles it, looking the name up only when it evaluates the token, so
        /// every evaluation that reaches it fails (no match; the helper's `default`).
        case unknownFunction(String)
    }

    /// A function's argument: JSON text (parsed when compiled) or a path from the root.
    enum Parameter: Sendable {
        case json(JSONValue)
        case path(JSONPath)
    }

    let source: String
    let tokens: [Token]
    /// `$…` (from the document's root) rather than `@…` (from a filter's item).
    let isRootPath: Bool
    /// Per token: whether it selects at most one value (Jayway's `isTokenDefinite`).
    let tokenDefinite: [Bool]

    /// Every token selects at most one value: the result is that value, not a list.
    var isDefinite: Bool { !tokenDefinite.contains(false) }

    /// Whether every token before `index` is definite (Jayway's `isUpstreamDefinite`).
    func upstreamDefinite(_ index: Int) -> Bool { !tokenDefinite[..<index].contains(false) }

    init(source: String, tokens: [Token], isRootPath: Bool) {
        self.source = source
        self.tokens = tokens
        self.isRootPath = isRootPath
        tokenDefinite = tokens.indices.map { i in
            switch tokens[i] {
            case .properties(let names): return names.count == 1 || i == tokens.count - 1
            case .indexes(let indexes): return indexes.count == 1
            case .function, .unknownFunction: return true
            case .slice, .wildcard, .scan, .filter: return false
            }
        }
    }

    /// Compiles a mapping's path; a path Jayway would reject, or one past the nesting or token
    /// caps, is refused at `pointer` with the reason.
    init(_ text: String, at pointer: String) throws(StubProblem) {
        do {
            self = try JSONPathCompiler.compile(text)
        } catch {
            throw StubProblem(pointer, "JSONPath \"\(text)\" is refused: \(error.message) (WireMock would accept the mapping and never match it)")
        }
    }
}

/// Why a JSONPath does not compile, in Jayway's words where it has them.
struct JSONPathSyntaxError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}
