/// Close status codes (RFC 6455 §7.4) the server sends, and which codes a peer may send.
package enum WebSocketCloseCode {
    package static let normal: UInt16 = 1000
    static let goingAway: UInt16 = 1001
    static let protocolError: UInt16 = 1002
    static let unsupportedData: UInt16 = 1003
    static let invalidPayload: UInt16 = 1007
    package static let policyViolation: UInt16 = 1008
    static let messageTooBig: UInt16 = 1009
    static let internalError: UInt16 = 1011

    /// Whether a peer may put `code` in a close frame: the defined codes (1000–1003, 1007–1014)
    /// and the registered/private ranges 3000–4999. 1004–1006 and 1015 are reserved and must
    /// never appear on the wire; 0–999 and 1016–2999 are unassigned.
    static func isValidReceived(_ code: UInt16) -> Bool {
        switch code {
        case 1000...1003, 1007...1014, 3000...4999: return true
        default: return false
        }
    }
}
