import HTTPServer
import EmulationKit

/// `randomValue`'s characters, drawn from one buffer of random bytes per value (not a system
/// call per character), and never more of them than the answer has room for.
enum StubRandom {
    /// The kernel's random bytes; opened once for the process.
    private static let device = RandomDevice()

    /// `count` characters of WireMock's `type` (its unknown types: printable ASCII).
    static func string(count: Int, type: String) -> String {
        if type == "UUID" {
            var generator = SystemRandomNumberGenerator()
            return UUIDText.random(using: &generator)
        }
        let alphabet = Array(self.alphabet(type).utf8)
        var characters = [UInt8]()
        characters.reserveCapacity(count)
        let accepted = 256 - 256 % alphabet.count
        while characters.count < count {
            let want = count - characters.count
            for byte in randomBytes(want + want / 2 + 16) where Int(byte) < accepted {
                characters.append(alphabet[Int(byte) % alphabet.count])
                if characters.count == count { break }
            }
        }
        return String(decoding: characters, as: UTF8.self)
    }

    private static func alphabet(_ type: String) -> String {
        let letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ", digits = "0123456789"
        switch type {
        case "ALPHABETIC": return letters
        case "NUMERIC": return digits
        case "HEXADECIMAL": return "0123456789abcdef"
        // RandomStringUtils.random(length, 33, 126): every printable character but space and ~.
        case "ALPHANUMERIC_AND_SYMBOLS": return String(decoding: (33..<126).map { UInt8($0) }, as: UTF8.self)
        case "ALPHANUMERIC": return letters + digits
        // randomAscii: 32 to 126.
        default: return String(decoding: (32..<127).map { UInt8($0) }, as: UTF8.self)
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
