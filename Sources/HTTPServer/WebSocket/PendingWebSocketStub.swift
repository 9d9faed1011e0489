// TEMPORARY stand-in for the WebSocket codec being written on branch `ws`; deleted at merge.
public enum WebSocketSessionEvent: Equatable, Sendable {
    case message(WebSocketMessage)
    case send([UInt8])
    case closeConnection
}
public struct WebSocketSession: Sendable {
    public init(maxMessageBytes: Int) {}
    public mutating func receive(_ bytes: UnsafeRawBufferPointer, into events: inout [WebSocketSessionEvent]) {}
    public mutating func initiateClose(code: UInt16, reason: String) -> [UInt8] { [] }
    public var isClosing: Bool { false }
    public static func encode(_ message: WebSocketMessage, into buffer: inout [UInt8]) {}
}
public enum WebSocketHandshake {
    public static func isUpgradeRequest(_ request: HTTPRequest) -> Bool { false }
    public static func response(for request: HTTPRequest) -> (response: HTTPResponse, accepted: Bool) { (HTTPResponse(), false) }
}
