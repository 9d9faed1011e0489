#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Why a file operation failed, in words: the system's text for the errno under a Foundation file
/// error (FoundationEssentials has no `localizedDescription` text), else the error as printed.
package enum FileErrorText {
    package static func of(_ error: any Error) -> String {
        if let posix = (error as? CocoaError)?.underlying as? POSIXError ?? error as? POSIXError {
            return Sys.errorText(posix.code.rawValue)
        }
        return "\(error)"
    }
}
