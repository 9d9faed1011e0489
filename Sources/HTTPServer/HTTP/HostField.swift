/// The parts of a `Host` value (or an absolute-form target's authority): the admin guard checks
/// them and stub templates render them (`request.requestLine.host`, `.port`).
package enum HostField {
    /// The host without its port and IPv6 brackets: `[::1]:8080` → `::1`.
    package static func name(_ value: String) -> String {
        let trimmed = String(value.trimmingASCIISpaces())
        if trimmed.hasPrefix("[") {
            guard let close = trimmed.firstIndex(of: "]") else { return trimmed }
            return String(trimmed[trimmed.index(after: trimmed.startIndex)..<close])
        }
        if let colon = trimmed.firstIndex(of: ":") { return String(trimmed[..<colon]) }
        return trimmed
    }

    /// The port (`[::1]:8080` → 8080); 80 when it names none, nil when it is not a number.
    package static func port(_ value: String) -> Int? {
        let trimmed = value.trimmingASCIISpaces()
        let afterName: Substring
        if trimmed.hasPrefix("[") {
            guard let close = trimmed.firstIndex(of: "]") else { return nil }
            afterName = trimmed[trimmed.index(after: close)...]
        } else if let colon = trimmed.firstIndex(of: ":") {
            afterName = trimmed[colon...]
        } else {
            afterName = ""
        }
        if afterName.isEmpty { return 80 }
        guard afterName.first == ":" else { return nil }
        let digits = afterName.dropFirst()
        guard !digits.isEmpty, digits.count <= 5, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(digits)
    }
}
