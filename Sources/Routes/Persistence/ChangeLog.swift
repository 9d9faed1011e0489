#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPServer
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif
import EmulationKit

/// The change log beside the state file (`PATH.log.N`, N the generation of the state file it
/// follows). Its first line names the log's base, `{"log":"mock-server-change-log",
/// "generation":N,"epoch":"…"}`: the base file carries the same generation and epoch, so a start
/// replays only the logs that follow its own base. Then one line per change of one part, a
/// header object, then for a value a tab and the value's JSON as the part wrote it (JSON text
/// holds no raw tab). A group of changes written together ends with a commit line holding the
/// CRC-32C of the group's lines; a group without one (the process died while writing it) was
/// never answered and is dropped on replay, with a log line. Logs written before the header and
/// the checksum (mock-server 2ddf4f4 and older) are read as they were written.
package enum ChangeLog {
    package static let format = "mock-server-change-log"

    /// The log that follows generation `generation` of `statePath`.
    package static func path(for statePath: String, generation: Int) -> String { "\(statePath).log.\(generation)" }

    /// The generations of the logs beside `statePath`, ascending.
    package static func generations(of statePath: String) -> [Int] {
        let url = URL(fileURLWithPath: statePath)
        let prefix = url.lastPathComponent + ".log."
        let names = (try? FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path)) ?? []
        return names.compactMap { $0.hasPrefix(prefix) ? Int($0.dropFirst(prefix.count)) : nil }.sorted()
    }

    /// The first line of a log: which base (generation and epoch) it follows.
    package static func header(generation: Int, epoch: String) -> [UInt8] {
        Array("{\"log\":\"\(format)\",\"generation\":\(generation),\"epoch\":\"\(epoch)\"}\n".utf8)
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
        out.append(contentsOf: Array("{\"commit\":\(commit),\"crc32c\":\"\(CRC32C.hex(CRC32C.checksum(out)))\"}\n".utf8))
        return out
    }

    private static func member(_ name: String, _ value: String, _ out: inout [UInt8]) {
        out.append(contentsOf: Array(",\"\(name)\":".utf8))
        JSONText.appendQuoted(value, to: &out)
    }

    /// What a log file holds.
    package struct Contents {
        /// The base it follows; nil for a log from before headers (or one torn before its first line).
        package var generation: Int?
        package var epoch: String?
        /// The committed changes, in order.
        package var ops: [(part: String, op: RecordOp)] = []
        /// A last group that is not whole (no commit line, or one whose checksum disagrees): where
        /// it starts and how long it is. Never answered, so dropped; the caller says so once.
        var tornTail: (offset: Int, length: Int)?
        /// The file holds no committed change at all.
        package var isEmpty: Bool { ops.isEmpty }
    }

    /// The bytes of the log at `path`; throws `StateFileError` when it exists but cannot be read
    /// (a start must not go on without it: PostgreSQL refuses an unreadable WAL segment too).
    package static func bytes(_ path: String, shownAs shown: String? = nil) throws -> [UInt8] {
        let named = shown ?? path
        var info = stat()
        guard stat(path, &info) == 0 else { throw StateFileError(named, "cannot read the change log (\(String(cString: strerror(errno))))") }
        if info.st_mode & mode_t(S_IFMT) != mode_t(S_IFREG) { throw StateFileError(named, "is not a file: a change log must be a regular file") }
        guard let bytes = FileBytes.read(path) else {
            throw StateFileError(named, "cannot read the change log (\(String(cString: strerror(errno))))")
        }
        return bytes
    }

    /// The header of a log's bytes (generation and epoch), and where the records start.
    package static func header(of bytes: [UInt8]) -> (generation: Int, epoch: String, end: Int)? {
        guard let newline = bytes.firstIndex(of: UInt8(ascii: "\n")), let line = JSONValue.parse(Array(bytes[..<newline])),
              line["log"]?.string == format, case .number(let g)? = line["generation"], g >= 0, g < 1e15,
              let epoch = line["epoch"]?.string else { return nil }
        return (Int(g), epoch, newline + 1)
    }

    /// The committed changes of a log. A damaged group followed by a committed one throws
    /// (naming the file and the offset: the changes after it were answered, so the start stops
    /// rather than lose them); a damaged or unfinished last group is the torn tail.
    package static func read(_ path: String) throws -> Contents {
        try read(bytes(path), path: path)
    }

    package static func read(_ bytes: [UInt8], path: String) throws -> Contents {
        var contents = Contents()
        var start = 0
        if let header = header(of: bytes) {
            contents.generation = header.generation
            contents.epoch = header.epoch
            start = header.end
        }
        let checked = contents.epoch != nil   // a log from before checksums has none to check
        var group: [(part: String, op: RecordOp)] = []
        var groupStart = start, lineNumber = contents.epoch != nil ? 1 : 0
        var bad: (offset: Int, line: Int, reason: String)?
        while start < bytes.count {
            guard let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) else { break }   // unfinished: never answered
            lineNumber += 1
            let line = bytes[start..<end]
            let lineStart = start
            start = end + 1
            if bad != nil {
                // Past a damaged group: a whole commit line after it means answered changes follow.
                if line.starts(with: Array("{\"commit\":".utf8)), JSONValue.parse(Array(line))?["commit"] != nil {
                    throw damaged(path, bad)
                }
                continue
            }
            let tab = line.firstIndex(of: UInt8(ascii: "\t"))
            guard let header = JSONValue.parse(Array(line[line.startIndex..<(tab ?? line.endIndex)])) else {
                bad = (groupStart, lineNumber, "line \(lineNumber) is not a change record")
                continue
            }
            if header["commit"] != nil {
                if checked {
                    let given = header["crc32c"]?.string
                    let actual = CRC32C.hex(CRC32C.checksum(bytes[groupStart..<lineStart]))
                    guard given == actual else {
                        bad = (groupStart, lineNumber, "the group ending at line \(lineNumber) fails its checksum (crc32c \(given ?? "missing"), the bytes give \(actual))")
                        continue
                    }
                }
                contents.ops += group
                group = []
                groupStart = start
                continue
            }
            let value = tab.map { Array(line[($0 + 1)...]) } ?? []
            guard let part = header["p"]?.string, let op = op(header, value) else {
                bad = (groupStart, lineNumber, "line \(lineNumber) is not a change record")
                continue
            }
            group.append((part, op))
        }
        if groupStart < bytes.count { contents.tornTail = (groupStart, bytes.count - groupStart) }
        return contents
    }

    private static func damaged(_ path: String, _ bad: (offset: Int, line: Int, reason: String)?) -> StateFileError {
        let place = bad.map { "at offset \($0.offset) (line \($0.line)): \($0.reason)" } ?? ""
        return StateFileError(path, "the change log is damaged \(place), and committed changes follow it; the server did not start so as not to drop them (restore the file from a backup, or move it away to start from the state file alone)")
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
