#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPServer
import EmulationKit

/// The initial data of every emulated system: the contents of `seed.json`, one section per
/// registered system (under its `seedKey`) and the operator's settings.
public struct Seed: Decodable, Sendable {
    /// Each system's decoded section, by seed key.
    private var sections: [String: any Sendable] = [:]
    /// Operator settings (`smsCode`, the state caps); command-line flags override them.
    public var settings: MockSettings?

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: SeedKey.self)
        // In the registry's order, so a seed missing several sections names the first.
        for type in (decoder.userInfo[.systemCatalog] as? SystemCatalog ?? SystemRegistry.catalog).types {
            sections[type.seedKey] = try type.decodeSection(from: container)
        }
        settings = try container.decodeIfPresent(MockSettings.self, forKey: SeedKey("settings"))
    }

    /// The section of a registered system (decoding read every one).
    public func section<System: EmulatedSystem>(_ system: System.Type) -> System.SeedSection {
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
public struct SeedError: Error, CustomStringConvertible, Sendable {
    public let description: String
}

extension Seed {
    /// Reads and decodes a seed file; every failure becomes one readable `SeedError`.
    public static func load(path: String) throws -> Seed {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw SeedError(description: "\(path): cannot read the seed file (\(FileErrorText.of(error)))")
        }
        return try decode(data, source: path)
    }

    /// Decodes seed JSON; `source` names it in error messages.
    public static func decode(_ data: Data, source: String) throws -> Seed {
        try decode(data, source: source, systems: SystemRegistry.catalog)
    }

    /// Decodes seed JSON with a section for each of `systems`.
    package static func decode(_ data: Data, source: String, systems: SystemCatalog) throws -> Seed {
        let decoder = JSONDecoder()
        decoder.userInfo[.systemCatalog] = systems
        do {
            return try decoder.decode(Seed.self, from: data)
        } catch let error as DecodingError {
            throw SeedError(description: "\(source): \(describe(error, data: data))")
        } catch let error as SeedError {
            throw SeedError(description: "\(source): \(error.description)")
        } catch {
            throw SeedError(description: "\(source): \(error)")
        }
    }

    static func describe(_ error: DecodingError, data: Data) -> String {
        DecodingProblem.describe(error, data: data)
    }
}
