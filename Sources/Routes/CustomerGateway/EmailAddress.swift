/// A pragmatic e-mail check, as a login form validates: `local@domain.tld`, no spaces.
enum EmailAddress {
    static func isValid(_ address: String) -> Bool {
        // One pass over the UTF-8 in place: copying it to an Array and splitting the domain into
        // labels cost more than the rest of a gateway login's checks.
        var address = address
        return address.withUTF8(isValid)
    }

    private static func isValid(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.count <= 254 else { return false }
        var at = -1
        for i in 0..<bytes.count {
            let b = bytes[i]
            if b <= 0x20 || b == 0x7F || b == UInt8(ascii: ",") || b == UInt8(ascii: ";") { return false }
            if b == UInt8(ascii: "@") {
                guard at < 0 else { return false }
                at = i
            }
        }
        guard at > 0 else { return false }
        // At least `name.tld`, and no empty label (`a@b..c`, `a@.b`, `a@b.`).
        var labels = 1, labelLength = 0
        for i in (at + 1)..<bytes.count {
            if bytes[i] == UInt8(ascii: ".") {
                guard labelLength > 0 else { return false }
                labels += 1
                labelLength = 0
            } else {
                labelLength += 1
            }
        }
        return labels >= 2 && labelLength > 0
    }
}
