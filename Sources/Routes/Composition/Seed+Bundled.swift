#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension Seed {
    /// The seed compiled into the binary (`BundledSeed`, generated from the repository's `seed.json`).
    package static func bundled() throws -> Seed {
        try decode(Data(BundledSeed.json.utf8), source: "bundled seed")
    }
}
