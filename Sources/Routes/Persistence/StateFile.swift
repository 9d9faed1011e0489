#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPServer
import EmulationKit

/// Why the state file cannot be used: names the file and what is wrong. The server does not
/// start over it (exit 65): starting empty would silently lose everything the file holds.
package struct StateFileError: Error, CustomStringConvertible, Sendable {
    package let description: String
    package init(_ path: String, _ problem: String) { description = "\(path): \(problem)" }
}

/// Another process (another mock-server) holds the state file: starting would lose its data or ours.
package struct StateFileInUse: Error, CustomStringConvertible, Sendable {
    package let description: String
    package init(path: String, held: FileLock.Held) {
        description = "\(path) is in use by another mock-server (\(held.holder.map { "pid \($0)" } ?? "pid unknown"), lock file \(held.path)); stop it, or give this one another --state file"
    }
}

/// Nothing can be created beside the state file (a read-only file system, a directory that is
/// not writable or does not exist): the server cannot keep state there at all.
package struct StateFileCannotCreate: Error, CustomStringConvertible, Sendable {
    package let description: String
    package init(path: String, _ failure: FileLock.CannotCreate) {
        description = "\(path): \(failure.description); the state file's directory must exist and be writable (give --state a path on a writable disk)"
    }
}

/// The state file's format: one versioned JSON envelope holding every part's snapshot,
/// `{"format": "mock-server-state", "version": 1, "savedAt": "…", "systems": {"<key>": …}}`.
enum StateFile {
    package static let format = "mock-server-state"
    /// Bumped only when an old reader would misread a new file; readers refuse newer versions.
    /// 2: a change log (`PATH.log.GENERATION`) may follow the file; version 1 had none.
    /// 3: the file and its logs carry an epoch, and each group of a log a checksum (an older
    /// server would stop at the log's header line; this tells it why).
    package static let version = 3

    /// The envelope around already-encoded snapshots, one line per part (readable, diff-friendly).
    /// With a `generation` (a state file followed by a change log) the envelope is version 2;
    /// without (a snapshot document, `GET /__mock/state`) version 1, which older readers take.
    /// `epoch` names the line of bases and logs it belongs to (its logs carry the same).
    package static func envelope(savedAt: Date, parts: [(key: String, json: Data)], generation: Int? = nil, epoch: String? = nil) -> Data {
        let versionAndGeneration = generation.map { "\"version\":\(version),\"generation\":\($0)" + (epoch.map { ",\"epoch\":\"\($0)\"" } ?? "") } ?? "\"version\":1"
        var out = Data("{\"format\":\"\(format)\",\(versionAndGeneration),\"savedAt\":\"\(ISO8601.string(savedAt))\",\"systems\":{".utf8)
        for (i, part) in parts.sorted(by: { $0.key < $1.key }).enumerated() {
            out.append(contentsOf: Array((i == 0 ? "\n" : ",\n").utf8))
            out.append(contentsOf: Array(JSONText.quoted(part.key).utf8))
            out.append(UInt8(ascii: ":"))
            out.append(part.json)
        }
        out.append(contentsOf: Array("\n}}\n".utf8))
        return out
    }

    /// What a good file holds: the restores to run (all parts decoded) and the keys nobody claimed.
    package struct Loaded {
        var restores: [(key: String, run: @Sendable () throws -> Void)]
        var unknownKeys: [String]
        package var savedAt: String?
        /// Which change log follows the file (0 for a version 1 file).
        package var generation: Int
        /// The epoch its logs carry; nil for a file written before epochs (2ddf4f4 and older).
        package var epoch: String?
    }

    private struct Header: Decodable {
        var format: String?
        var version: Int?
        var savedAt: String?
        var generation: Int?
        var epoch: String?
    }

    /// Hands the known parts to `Systems.init(from:)` (failable only for an empty name).
    private static let entriesKey = CodingUserInfoKey(rawValue: "mock-server.state.entries")

    /// Decodes `data` read from `path` against the parts known to this server.
    package static func decode(_ data: Data, path: String, entries: [PersistentEntry]) throws -> Loaded {
        guard !data.isEmpty else { throw StateFileError(path, "the file is empty, not a mock-server state file (remove it to start from the seed)") }
        let header: Header
        do {
            header = try StateCoding.decoder().decode(Header.self, from: data)
        } catch {
            throw StateFileError(path, "not a mock-server state file: \(describe(error, data: data))")
        }
        guard header.format == format else {
            throw StateFileError(path, "not a mock-server state file (no \"format\": \"\(format)\")")
        }
        guard let version = header.version else { throw StateFileError(path, "no \"version\" in the state file") }
        if version > StateFile.version {
            throw StateFileError(path, "written by a newer mock-server (state format version \(version); this one reads version \(StateFile.version)): upgrade mock-server, or remove the file to start from the seed")
        }
        guard version >= 1 else { throw StateFileError(path, "unknown state format version \(version)") }
        let decoder = StateCoding.decoder()
        if let entriesKey { decoder.userInfo[entriesKey] = entries }
        do {
            let body = try decoder.decode(Body.self, from: data)
            return Loaded(restores: body.systems.restores, unknownKeys: body.systems.unknownKeys, savedAt: header.savedAt,
                          generation: max(0, header.generation ?? 0), epoch: header.epoch)
        } catch {
            throw StateFileError(path, describe(error, data: data))
        }
    }

    private struct Body: Decodable {
        var systems: Systems
    }

    /// Decodes each known part straight from its place in the file (no second JSON round trip,
    /// so 64-bit numbers and dates stay exact).
    private struct Systems: Decodable {
        var restores: [(key: String, run: @Sendable () throws -> Void)] = []
        var unknownKeys: [String] = []

        struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        init(from decoder: any Decoder) throws {
            let entries = StateFile.entriesKey.flatMap { decoder.userInfo[$0] as? [PersistentEntry] } ?? []
            let container = try decoder.container(keyedBy: Key.self)
            for key in container.allKeys.sorted(by: { $0.stringValue < $1.stringValue }) {
                guard let entry = entries.first(where: { $0.key == key.stringValue }) else {
                    unknownKeys.append(key.stringValue)
                    continue
                }
                restores.append((entry.key, try entry.decode(try container.superDecoder(forKey: key))))
            }
        }
    }

    /// The place and the problem, in the seed's words (line and column for broken JSON).
    private static func describe(_ error: any Error, data: Data) -> String {
        guard let error = error as? DecodingError else { return "\(error)" }
        return DecodingProblem.describe(error, data: data)
    }
}
