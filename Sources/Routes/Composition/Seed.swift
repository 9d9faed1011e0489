#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPServer
import EmulationKit

/// The initial data of every emulated system: the contents of `seed.json`, one section per
/// registered system (under its `seedKey`) and the operator's settings. A seed may leave sections
/// out: those come from the bundled seed.
package struct Seed: Decodable, Sendable {
    /// Each system's decoded section, by seed key.
    private var sections: [String: any Sendable] = [:]
    /// Operator settings (`smsCode`, the state caps); command-line flags override them.
    package var settings: MockSettings?
    /// The JSON it was decoded from (`decode`): what the state file keeps of a seed posted to
    /// `/__mock/reset`, so a restart runs it again.
    package internal(set) var text: String?

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: SeedKey.self)
        let defaults = (decoder as? SeedValueDecoder)?.ledger.defaults
        // In the registry's order, so a seed missing several sections names the first.
        for type in (decoder.systemCatalog ?? SystemRegistry.catalog).types {
            if let defaults, !container.contains(SeedKey(type.seedKey)) {
                sections[type.seedKey] = defaults.sections[type.seedKey]
            } else {
                sections[type.seedKey] = try type.decodeSection(from: container)
            }
        }
        settings = try container.decodeIfPresent(MockSettings.self, forKey: SeedKey("settings"))
    }

    /// The section of a registered system (decoding read every one).
    package func section<System: EmulatedSystem>(_ system: System.Type) -> System.SeedSection {
        guard let section = sections[System.seedKey] as? System.SeedSection else {
            preconditionFailure("\(System.self) is not in SystemRegistry.types")
        }
        return section
    }
}

/// A key of `seed.json`'s top level: a system's `seedKey` or `settings`.
struct SeedKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }
    init(_ key: String) { stringValue = key }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

/// Why `seed.json` could not be used: names the file, the place and what is wrong.
package struct SeedError: Error, CustomStringConvertible, Sendable {
    package let description: String
    /// What to do about it, when there is more to say than the description (`X-Mock-Hint` over HTTP).
    package let hint: String?

    package init(description: String, hint: String? = nil) {
        self.description = description
        self.hint = hint
    }

    /// The description and the hint, as one message for a terminal.
    package var withHint: String { hint.map { "\(description)\n(\($0))" } ?? description }

    /// The description and the hint on one line, for a log line (which shows a line break as `\n`).
    package var withHintInline: String { hint.map { "\(description) (\($0))" } ?? description }
}

extension Seed {
    /// Reads and decodes a seed file; every failure becomes one readable `SeedError`.
    package static func load(path: String) throws -> Seed {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw SeedError(description: "\(path): cannot read the seed file (\(FileErrorText.of(error)))")
        }
        return try decode(data, source: path)
    }

    /// The bundled seed's sections, for the sections a given seed leaves out (decoded once).
    private static let bundledDefaults: Seed? = try? decode(Data(BundledSeed.json.utf8), source: "bundled seed", defaults: nil)

    /// Decodes seed JSON; `source` names it in error messages. Sections left out come from the
    /// bundled seed; a key no section reads is refused with its path.
    package static func decode(_ data: Data, source: String) throws -> Seed {
        try decode(data, source: source, defaults: bundledDefaults)
    }

    static func decode(_ data: Data, source: String, defaults: Seed?) throws -> Seed {
        try decode(data, source: source, defaults: defaults, systems: SystemRegistry.catalog)
    }

    /// Decodes seed JSON with a section for each of `systems` (one left out comes from `defaults`).
    package static func decode(_ data: Data, source: String, defaults: Seed?, systems: SystemCatalog) throws -> Seed {
        do {
            guard let json = JSONValue.parse(Array(data)) else {
                throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "not valid JSON"))
            }
            let ledger = SeedDecoding(defaults: defaults, systems: systems)
            var seed: Seed
            do {
                seed = try SeedValueDecoder(value: json, codingPath: [], ledger: ledger).decode(Seed.self)
            } catch DecodingError.keyNotFound(let key, let context) {
                // A missing key beside one nobody reads is most often a typo: name the typo.
                if let unknown = ledger.unknownKey(besideMissing: key.stringValue, at: context.codingPath, in: json) {
                    throw SeedError(description: "\(source): at \(unknown.path): unknown key (keys there: \(unknown.known.joined(separator: ", ")))",
                                    hint: "check its spelling: \"\(key.stringValue)\" is missing there")
                }
                throw DecodingError.keyNotFound(key, context)
            }
            if let unknown = ledger.firstUnknownKey(in: json) {
                let known = unknown.known.isEmpty ? "" : " (keys there: \(unknown.known.joined(separator: ", ")))"
                throw SeedError(description: "\(source): at \(unknown.path): unknown key\(known)",
                                hint: "check its spelling or remove it; a section left out takes the bundled seed's")
            }
            seed.text = String(decoding: data, as: UTF8.self)
            return seed
        } catch let error as SeedError where error.description.hasPrefix("\(source): ") {
            throw error
        } catch let error as DecodingError {
            var hint: String?
            if case .keyNotFound(_, let context) = error, let section = context.codingPath.first {
                hint = "a section is given whole (every key but the optional ones) or left out to take the bundled seed's; give \"\(section.stringValue)\" whole or leave it out"
            }
            throw SeedError(description: "\(source): \(describe(error, data: data))", hint: hint)
        } catch let error as SeedError {
            throw SeedError(description: "\(source): \(error.description)", hint: error.hint)
        } catch {
            throw SeedError(description: "\(source): \(error)")
        }
    }

    static func describe(_ error: DecodingError, data: Data) -> String {
        DecodingProblem.describe(error, data: data)
    }
}
