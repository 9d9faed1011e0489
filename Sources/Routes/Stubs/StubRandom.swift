import HTTPServer

/// `randomValue`'s characters, drawn from one buffer of random bytes per value (not a system
/// call per character), and never more of them than the answer has room for.
enum StubRandom {
    /// The kernel's random bytes; opened once for the process.
    private static let device = RandomDevice()

    /// Appends `length` characters of `type` (or as many as fit before the buffer's cap stops it).
    static func append(length: Int, type: String, uppercase: Bool, escaped: Bool, into out: inout StubRenderBuffer) {
        if type == "UUID" {
            var generator = SystemRandomNumberGenerator()
            let text = UUIDString.random(using: &generator)
            out.append(uppercase ? text.uppercased() : text)
            return
        }
        let alphabet = Array(self.alphabet(type).utf8)
        // One character more than fits is enough to make the buffer stop.
        let count = min(length, max(out.remaining, 0) + 1)
        var characters = [UInt8]()
        characters.reserveCapacity(count)
        // Rejection sampling keeps every character equally likely: bytes past the last whole
        // multiple of the alphabet's size are skipped.
        let accepted = 256 - 256 % alphabet.count
        while characters.count < count {
            let want = count - characters.count
            for byte in randomBytes(want + want / 2 + 16) where Int(byte) < accepted {
                characters.append(alphabet[Int(byte) % alphabet.count])
                if characters.count == count { break }
            }
        }
        if uppercase { characters = characters.map { $0 >= 0x61 && $0 <= 0x7A ? $0 - 0x20 : $0 } }
        if escaped && characters.contains(where: StubRenderBuffer.needsEscape) {
            out.append(String(decoding: characters, as: UTF8.self), escaped: true)
        } else {
            out.append(bytes: characters)
        }
    }

    private static func alphabet(_ type: String) -> String {
        let letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ", digits = "0123456789"
        switch type {
        case "ALPHABETIC": return letters
        case "NUMERIC": return digits
        case "HEXADECIMAL": return "0123456789abcdef"
        case "ALPHANUMERIC_AND_SYMBOLS": return letters + digits + "!#$%&()*+,-./:;<=>?@[]^_{|}~"
        default: return letters + digits
        }
    }

    /// `count` random bytes in one read of the random device (the system generator, 8 bytes a
    /// call, only where there is no device).
    private static func randomBytes(_ count: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        let read = bytes.withUnsafeMutableBytes { device.fill($0) }
        if read < count {
            var generator = SystemRandomNumberGenerator()
            for i in read..<count { bytes[i] = UInt8.random(in: 0...255, using: &generator) }
        }
        return bytes
    }
}
