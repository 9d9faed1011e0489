/// The certificates of a CA file (`--proxy-ca-file`) as DER, the form the Security framework
/// takes (`SecCertificateCreateWithData`): PEM, one or more `-----BEGIN CERTIFICATE-----` blocks
/// (RFC 7468 §5; text between blocks and blocks of other labels are skipped, as OpenSSL skips
/// them), or a single DER certificate. Platform-neutral, so its tests run on Linux too.
package enum CertificateFile {
    /// The largest file taken: a bundle of every public root is about 220 KB, so a larger file
    /// is a wrong path, not a CA file, and is refused before it is read.
    package static let maxBytes = 1 << 20

    /// How the file wrote its certificates.
    package enum Encoding: Sendable, Equatable {
        case pem
        case der
    }

    /// Why a file's bytes are not certificates.
    package struct Problem: Error, Sendable, Equatable, CustomStringConvertible {
        package let description: String
        init(_ description: String) { self.description = description }
    }

    private static let begin = Array("-----BEGIN ".utf8)
    private static let end = Array("-----END ".utf8)
    private static let dashes = Array("-----".utf8)

    /// The DER bytes of each certificate in `bytes`, in file order, and the file's encoding.
    /// Throws when there is none, or a `CERTIFICATE` block is not Base64 or is never closed.
    package static func certificates(in bytes: [UInt8]) throws(Problem) -> (der: [[UInt8]], encoding: Encoding) {
        if isOneDERValue(bytes) { return ([bytes], .der) }
        var found: [[UInt8]] = []
        var open: (label: [UInt8], line: Int, base64: [UInt8])?
        for (index, line) in lines(bytes).enumerated() {
            if let label = marker(line, begin) {
                // A BEGIN inside a block is what an unclosed block looks like.
                if let block = open { throw Problem("the \(text(block.label)) block of line \(block.line) has no END line") }
                open = (label, index + 1, [])
            } else if let label = marker(line, end) {
                guard let block = open, block.label == label else { throw Problem("line \(index + 1) ends a block that was not begun") }
                open = nil
                guard block.label == Array("CERTIFICATE".utf8) else { continue }
                guard let der = Base64.decode(String(decoding: block.base64, as: UTF8.self)), !der.isEmpty else {
                    throw Problem("the certificate of line \(block.line) is not Base64")
                }
                found.append(der)
            } else if open != nil {
                // RFC 7468 §3: a parser may take blanks within the Base64 text.
                open?.base64.append(contentsOf: line.filter { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") })
            }
        }
        if let block = open { throw Problem("the \(text(block.label)) block of line \(block.line) has no END line") }
        guard !found.isEmpty else {
            throw Problem("it holds no certificate: neither a PEM -----BEGIN CERTIFICATE----- block nor one DER certificate")
        }
        return (found, .pem)
    }

    /// The file's lines, without their LF or CRLF (a file written on Windows reads the same).
    private static func lines(_ bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { line in
            line.last == UInt8(ascii: "\r") ? line.dropLast() : line
        }
    }

    /// The label of a `-----BEGIN LABEL-----` (or END) line, trailing blanks allowed; nil for any other line.
    private static func marker(_ line: ArraySlice<UInt8>, _ prefix: [UInt8]) -> [UInt8]? {
        var trimmed = line
        while let last = trimmed.last, last == UInt8(ascii: " ") || last == UInt8(ascii: "\t") { trimmed = trimmed.dropLast() }
        guard trimmed.starts(with: prefix), trimmed.count >= prefix.count + dashes.count,
              trimmed.suffix(dashes.count).elementsEqual(dashes) else { return nil }
        return Array(trimmed.dropFirst(prefix.count).dropLast(dashes.count))
    }

    /// True when `bytes` is exactly one DER SEQUENCE (what a DER certificate is, X.690 §8.1):
    /// tag 0x30, a definite length in one to four bytes, and nothing after its content. A PEM
    /// file starts with text, never 0x30 followed by a length that covers the rest of the file.
    private static func isOneDERValue(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 2, bytes[0] == 0x30 else { return false }
        let first = Int(bytes[1])
        if first < 0x80 { return 2 + first == bytes.count }
        let count = first & 0x7F
        guard (1...4).contains(count), bytes.count >= 2 + count else { return false }
        let length = bytes[2..<(2 + count)].reduce(0) { $0 << 8 | Int($1) }
        return 2 + count + length == bytes.count
    }

    private static func text(_ label: [UInt8]) -> String { String(decoding: label, as: UTF8.self) }
}
