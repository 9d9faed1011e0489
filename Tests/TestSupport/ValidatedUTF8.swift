/// The bytes as a String, or nil when they are not valid UTF-8: a stand-in for the standard
/// library's `String(validating:as:)`, which needs macOS 15 / iOS 18 (the tests build for iOS 16).
/// `transcode` has no availability limit; it stops at the first ill-formed sequence.
package func validatedUTF8<S: Sequence>(_ bytes: S) -> String? where S.Element == UInt8 {
    var scalars = String.UnicodeScalarView()
    let failed = transcode(bytes.makeIterator(), from: UTF8.self, to: UTF32.self, stoppingOnError: true) { unit in
        // UTF32 code units from a successful transcode are always scalar values.
        if let scalar = Unicode.Scalar(unit) { scalars.append(scalar) }
    }
    return failed ? nil : String(scalars)
}
