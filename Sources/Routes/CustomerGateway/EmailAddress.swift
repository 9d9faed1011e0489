/// A pragmatic e-mail check, as a login form validates: `local@domain.tld`, no spaces.
enum EmailAddress {
    static func isValid(_ address: String) -> Bool {
        let bytes = Array(address.utf8)
        guard bytes.count <= 254, let at = bytes.firstIndex(of: UInt8(ascii: "@")),
              at > 0, at == bytes.lastIndex(of: UInt8(ascii: "@")) else { return false }
        if bytes.contains(where: { $0 <= 0x20 || $0 == 0x7F || $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: ";") }) { return false }
        let domain = bytes[(at + 1)...]
        let labels = domain.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        // At least `name.tld`, and no empty label (`a@b..c`, `a@.b`, `a@b.`).
        return labels.count >= 2 && labels.allSatisfy { !$0.isEmpty }
    }
}
