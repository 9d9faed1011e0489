#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPServer

/// A JSON decoding failure as one line that names the place (the seed file, the state file).
package enum DecodingProblem {
    package static func describe(_ error: DecodingError, data: Data) -> String {
        func path(_ keys: [any CodingKey]) -> String {
            let p = keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return p.isEmpty ? "the top level" : String(p.drop(while: { $0 == "." }))
        }
        switch error {
        case .dataCorrupted(let ctx):
            if ctx.codingPath.isEmpty {
                if let offset = JSONValue.syntaxErrorOffset(Array(data)) {
                    let (line, column) = lineAndColumn(of: offset, in: data)
                    return "not valid JSON at line \(line), column \(column)"
                }
                return "not valid JSON (\(ctx.debugDescription))"
            }
            return "at \(path(ctx.codingPath)): \(ctx.debugDescription)"
        case .keyNotFound(let key, let ctx):
            return "at \(path(ctx.codingPath)): missing key \"\(key.stringValue)\""
        case .typeMismatch(let type, let ctx):
            // The seed decoder words it ("expected an object", "expected Int").
            if ctx.debugDescription.hasPrefix("expected ") { return "at \(path(ctx.codingPath)): \(ctx.debugDescription)" }
            return "at \(path(ctx.codingPath)): expected \(type)"
        case .valueNotFound(let type, let ctx):
            return "at \(path(ctx.codingPath)): expected \(type), found null"
        @unknown default:
            return "\(error)"
        }
    }

    private static func lineAndColumn(of index: Int, in data: Data) -> (Int, Int) {
        var line = 1, column = 1
        for byte in data.prefix(index) {
            if byte == UInt8(ascii: "\n") { line += 1; column = 1 } else { column += 1 }
        }
        return (line, column)
    }
}

extension CodingUserInfoKey {
    /// Where a decoder carries the `SystemCatalog` of the systems a seed has sections for (nil
    /// only if Foundation refused the name, which it does for none).
    package static let systemCatalog: CodingUserInfoKey? = CodingUserInfoKey(rawValue: "systemCatalog")
}

extension Decoder {
    /// The systems the decoder was given (`CodingUserInfoKey.systemCatalog`), if any.
    package var systemCatalog: SystemCatalog? {
        CodingUserInfoKey.systemCatalog.flatMap { userInfo[$0] as? SystemCatalog }
    }
}
