#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPServer
import EmulationKit

/// The change log beside the state file (`PATH.log.N`, N the generation of the state file it
/// follows): one line per change of one part, a header object, then for a value a tab and the
/// value's JSON as the part wrote it (JSON text holds no raw tab). A group of changes written
/// together ends with a commit line; a group without one (the process died while writing it)
/// was never answered and is ignored on replay.
package enum ChangeLog {
    /// The log that follows generation `generation` of `statePath`.
    package static func path(for statePath: String, generation: Int) -> String { "\(statePath).log.\(generation)" }

    /// The generations of the logs beside `statePath`, ascending.
    package static func generations(of statePath: String) -> [Int] {
        let url = URL(fileURLWithPath: statePath)
        let prefix = url.lastPathComponent + ".log."
        let names = (try? FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path)) ?? []
        return names.compactMap { $0.hasPrefix(prefix) ? Int($0.dropFirst(prefix.count)) : nil }.sorted()
    }

    /// The lines of one group of changes, commit line included.
    package static func encode(_ ops: [(part: String, op: RecordOp)], commit: UInt64) -> [UInt8] {
        var out: [UInt8] = []
        for (part, op) in ops {
            out.append(contentsOf: Array("{\"p\":".utf8))
            JSONText.appendQuoted(part, to: &out)
            var value: [UInt8]?
            switch op {
            case .whole(let json):
                out.append(contentsOf: Array(",\"w\":1".utf8))
                value = json
            case .field(let name, let json):
                member("f", name, &out)
                value = json
            case .upsert(let name, let key, let json, let moveToEnd):
                member("c", name, &out)
                member("k", key, &out)
                if moveToEnd { out.append(contentsOf: Array(",\"m\":1".utf8)) }
                value = json
            case .delete(let name, let key):
                member("c", name, &out)
                member("k", key, &out)
                out.append(contentsOf: Array(",\"d\":1".utf8))
            case .listCut(let name, let drop, let keep):
                member("c", name, &out)
                out.append(contentsOf: Array(",\"drop\":\(drop),\"keep\":\(keep)".utf8))
            case .listAppend(let name, let json):
                member("c", name, &out)
                out.append(contentsOf: Array(",\"a\":1".utf8))
                value = json
            }
            out.append(UInt8(ascii: "}"))
            if let value {
                out.append(UInt8(ascii: "\t"))
                out.append(contentsOf: value)
            }
            out.append(UInt8(ascii: "\n"))
        }
        out.append(contentsOf: Array("{\"commit\":\(commit)}\n".utf8))
        return out
    }

    private static func member(_ name: String, _ value: String, _ out: inout [UInt8]) {
        out.append(contentsOf: Array(",\"\(name)\":".utf8))
        JSONText.appendQuoted(value, to: &out)
    }

    /// The committed changes of a log file, in order. A damaged line before the last commit
    /// throws (naming the file and line); an unfinished last group is dropped.
    package static func read(_ path: String) throws -> [(part: String, op: RecordOp)] {
        guard let bytes = FileBytes.read(path) else { return [] }
        var committed: [(part: String, op: RecordOp)] = [], group: [(part: String, op: RecordOp)] = []
        var lineNumber = 0, start = 0
        while start < bytes.count {
            guard let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) else { break }   // unfinished: never answered
            lineNumber += 1
            let line = bytes[start..<end]
            start = end + 1
            let tab = line.firstIndex(of: UInt8(ascii: "\t"))
            guard let header = JSONValue.parse(Array(line[line.startIndex..<(tab ?? line.endIndex)])) else {
                // A torn group at the end is dropped with it; anywhere else the log is damaged.
                if bytes[start...].contains(where: { _ in true }) && hasCommit(after: start, in: bytes) {
                    throw StateFileError(path, "line \(lineNumber) is not a change record")
                }
                break
            }
            let value = tab.map { Array(line[($0 + 1)...]) } ?? []
            if header["commit"] != nil {
                committed += group
                group = []
                continue
            }
            guard let part = header["p"]?.string, let op = op(header, value) else {
                throw StateFileError(path, "line \(lineNumber) is not a change record")
            }
            group.append((part, op))
        }
        return committed
    }

    private static func hasCommit(after offset: Int, in bytes: [UInt8]) -> Bool {
        let marker = Array("{\"commit\":".utf8)
        var i = offset
        while i + marker.count <= bytes.count {
            if (i == 0 || bytes[i - 1] == UInt8(ascii: "\n")) && Array(bytes[i..<(i + marker.count)]) == marker { return true }
            i += 1
        }
        return false
    }

    private static func op(_ header: JSONValue, _ value: [UInt8]) -> RecordOp? {
        if header["w"] != nil { return .whole(value) }
        if let name = header["f"]?.string { return .field(name, value) }
        guard let name = header["c"]?.string else { return nil }
        if let key = header["k"]?.string {
            if header["d"] != nil { return .delete(name, key: key) }
            return .upsert(name, key: key, json: value, moveToEnd: header["m"] != nil)
        }
        if header["a"] != nil { return .listAppend(name, value) }
        if case .number(let drop)? = header["drop"], case .number(let keep)? = header["keep"],
           drop >= 0, keep >= 0, drop < 1e9, keep < 1e9 {
            return .listCut(name, drop: Int(drop), keep: Int(keep))
        }
        return nil
    }
}
