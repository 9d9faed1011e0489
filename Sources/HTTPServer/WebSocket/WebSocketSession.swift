/// What the connection must do after feeding bytes to a session, in order.
package enum WebSocketSessionEvent: Equatable, Sendable {
    /// A complete data message for the application handler, its payload as received.
    case message(WebSocketPayload)
    /// Bytes to write as-is (pong, close frames).
    case send([UInt8])
    /// Write everything queued before this, then close the TCP connection; feed nothing more.
    case closeConnection
}

/// RFC 6455 protocol state of one upgraded connection (server side). Pure: bytes in, events out.
///
/// Payload bytes are streamed straight into the message buffer (each byte copied once from the
/// read buffer), unmasked there in place and, for text, UTF-8-checked as they arrive, so an
/// invalid message fails at its first bad byte. Only a partial header (≤ 14 bytes), a control
/// payload (≤ 125 bytes) and the message being assembled (≤ maxMessageBytes) are ever buffered.
package struct WebSocketSession: Sendable {
    private enum State: Sendable {
        case open
        /// We sent a close frame; data is ignored until the peer's close arrives.
        case closeSent
        /// Nothing more is read or written.
        case closed
    }

    /// The largest up-front reservation for a declared frame length (the rest grows as bytes arrive),
    /// so a peer cannot make us allocate much by merely announcing a large frame.
    private static let maxReservation = 1024 * 1024

    private let maxMessageBytes: Int
    private var state = State.open

    /// Header bytes of the current frame while it arrives in pieces.
    private var headerBytes: [UInt8] = []
    /// The frame whose payload is being read; nil while waiting for a header.
    private var frame: WebSocketFrameHeader?
    private var payloadRemaining: UInt64 = 0
    /// Payload bytes of the current frame already consumed (the mask phase).
    private var payloadOffset = 0
    /// True when the current frame's payload is skipped (data after our close).
    private var discarding = false

    /// The opcode (text or binary) of the message being assembled; nil between messages.
    private var messageOpcode: UInt8?
    private var message: [UInt8] = []
    private var utf8 = UTF8Validator()
    /// The payload of the current control frame.
    private var control: [UInt8] = []

    package init(maxMessageBytes: Int) {
        self.maxMessageBytes = max(0, maxMessageBytes)
    }

    /// Why the session failed the connection (a protocol error or a bound), for the log; nil otherwise.
    package private(set) var failure: (code: UInt16, reason: String)?

    /// True while a frame or a fragmented message has started but not finished.
    var isMidMessage: Bool { frame != nil || !headerBytes.isEmpty || messageOpcode != nil }

    /// True once a close frame was sent (by either `initiateClose` or the close handshake).
    package var isClosing: Bool { state != .open }

    /// Feeds bytes read from the socket (any split: a frame may arrive one byte at a time,
    /// several frames in one read). Appends events.
    package mutating func receive(_ bytes: UnsafeRawBufferPointer, into events: inout [WebSocketSessionEvent]) {
        let typed = UnsafeBufferPointer(start: bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), count: bytes.count)
        receive(typed, into: &events)
    }

    /// Convenience for tests: feeds an array.
    package mutating func receive(_ bytes: [UInt8], into events: inout [WebSocketSessionEvent]) {
        bytes.withUnsafeBufferPointer { receive($0, into: &events) }
    }

    /// Server-initiated close (shutdown 1001, idle): returns the close frame to write; afterwards
    /// the session waits for the peer's close. Empty when a close was already sent.
    package mutating func initiateClose(code: UInt16, reason: String) -> [UInt8] {
        guard state == .open else { return [] }
        state = .closeSent
        releaseMessage()
        // A frame already half read is skipped too: no message may be delivered after our close.
        if frame != nil { discarding = true }
        return WebSocketSession.closeFrame(code: code, reason: reason)
    }

    /// A close frame with a status code and a reason cut to fit the 125-byte control payload.
    package static func closeFrame(code: UInt16, reason: String) -> [UInt8] {
        var reasonBytes = Array(reason.utf8.prefix(123))
        // Do not cut a character in half: drop trailing continuation bytes and their lead byte.
        if reasonBytes.count < reason.utf8.count {
            while let last = reasonBytes.last, last & 0xC0 == 0x80 { reasonBytes.removeLast() }
            if let last = reasonBytes.last, last >= 0xC0 { reasonBytes.removeLast() }
        }
        var frame: [UInt8] = []
        frame.reserveCapacity(4 + reasonBytes.count)
        WebSocketFrameHeader.encode(fin: true, opcode: WebSocketOpcode.close, payloadLength: 2 + reasonBytes.count, into: &frame)
        frame.append(UInt8(truncatingIfNeeded: code >> 8))
        frame.append(UInt8(truncatingIfNeeded: code))
        frame.append(contentsOf: reasonBytes)
        return frame
    }

    // MARK: - Parsing

    private mutating func receive(_ input: UnsafeBufferPointer<UInt8>, into events: inout [WebSocketSessionEvent]) {
        var i = 0
        while i < input.count && state != .closed {
            if frame != nil {
                let available = UInt64(input.count - i)
                let take = Int(min(payloadRemaining, available))
                consumePayload(UnsafeBufferPointer(rebasing: input[i..<(i + take)]), into: &events)
                i += take
                if frame != nil && payloadRemaining == 0 { finishFrame(into: &events) }
                continue
            }
            // Fast path: the whole header is in this read.
            if headerBytes.isEmpty {
                switch WebSocketFrameHeader.parse(UnsafeBufferPointer(rebasing: input[i...])) {
                case .header(let header):
                    i += header.headerLength
                    beginFrame(header, into: &events)
                    continue
                case .invalidLength:
                    fail(WebSocketCloseCode.protocolError, "invalid frame length", into: &events)
                    return
                case .needMore:
                    break
                }
            }
            // Slow path: collect the header across reads, never more bytes than it needs.
            switch headerBytes.withUnsafeBufferPointer({ WebSocketFrameHeader.parse($0) }) {
            case .needMore(let needed):
                let take = min(needed - headerBytes.count, input.count - i)
                headerBytes.append(contentsOf: UnsafeBufferPointer(rebasing: input[i..<(i + take)]))
                i += take
            case .header(let header):
                headerBytes.removeAll(keepingCapacity: true)
                beginFrame(header, into: &events)
            case .invalidLength:
                fail(WebSocketCloseCode.protocolError, "invalid frame length", into: &events)
                return
            }
        }
        // A header completed by the last bytes of this read is handled now, not on the next read.
        if state != .closed, frame == nil, !headerBytes.isEmpty,
           case .header(let header) = headerBytes.withUnsafeBufferPointer({ WebSocketFrameHeader.parse($0) }) {
            headerBytes.removeAll(keepingCapacity: true)
            beginFrame(header, into: &events)
        }
    }

    /// Validates a frame header (§5.2–5.5) and prepares to read its payload.
    private mutating func beginFrame(_ header: WebSocketFrameHeader, into events: inout [WebSocketSessionEvent]) {
        let opcode = header.opcode
        let isControl = WebSocketOpcode.isControl(opcode)
        guard header.rsv == 0 else { return fail(WebSocketCloseCode.protocolError, "reserved bits set", into: &events) }
        guard WebSocketOpcode.isKnown(opcode) else { return fail(WebSocketCloseCode.protocolError, "reserved opcode", into: &events) }
        guard header.mask != nil else { return fail(WebSocketCloseCode.protocolError, "unmasked client frame", into: &events) }
        if isControl {
            guard header.fin, header.payloadLength <= 125 else {
                return fail(WebSocketCloseCode.protocolError, "fragmented or oversized control frame", into: &events)
            }
        }
        discarding = false
        if state == .closeSent {
            // Waiting for the peer's close: its arrival ends the connection; everything else is skipped.
            discarding = true
        } else if !isControl {
            if opcode == WebSocketOpcode.continuation {
                guard messageOpcode != nil else {
                    return fail(WebSocketCloseCode.protocolError, "continuation without a message", into: &events)
                }
            } else {
                guard messageOpcode == nil else {
                    return fail(WebSocketCloseCode.protocolError, "new message inside a fragmented message", into: &events)
                }
                messageOpcode = opcode
                utf8.reset()
            }
            // Compare in UInt64: a declared length can exceed Int.max.
            guard UInt64(message.count) + header.payloadLength <= UInt64(maxMessageBytes) else {
                return fail(WebSocketCloseCode.messageTooBig, "message too big", into: &events)
            }
            // Reserve only at a message's first frame: reserving per fragment would defeat
            // the array's geometric growth and copy the message once per fragment.
            if message.isEmpty {
                let wanted = Int(min(header.payloadLength, UInt64(WebSocketSession.maxReservation)))
                if message.capacity < wanted { message.reserveCapacity(wanted) }
            }
        }
        frame = header
        payloadRemaining = header.payloadLength
        payloadOffset = 0
        if payloadRemaining == 0 { finishFrame(into: &events) }
    }

    /// Appends payload bytes of the current frame, unmasking (and checking UTF-8) in place.
    private mutating func consumePayload(_ chunk: UnsafeBufferPointer<UInt8>, into events: inout [WebSocketSessionEvent]) {
        guard let header = frame, let mask = header.mask, !chunk.isEmpty else { return }
        let phase = payloadOffset
        payloadOffset += chunk.count
        payloadRemaining -= UInt64(chunk.count)
        if discarding { return }
        if WebSocketOpcode.isControl(header.opcode) {
            let start = control.count
            control.append(contentsOf: chunk)
            control.withUnsafeMutableBufferPointer { all in
                WebSocketMask.apply(mask, phase: phase, to: UnsafeMutableBufferPointer(rebasing: all[start...]))
            }
            return
        }
        let start = message.count
        let needed = start + chunk.count
        if needed > message.capacity {
            // Geometric growth as the array would do, but never past the limit: a message of
            // maxMessageBytes must not leave a buffer of twice that size behind.
            message.reserveCapacity(max(needed, min(message.capacity * 2, maxMessageBytes)))
        }
        message.append(contentsOf: chunk)
        let isText = messageOpcode == WebSocketOpcode.text
        var validator = utf8
        let valid = message.withUnsafeMutableBufferPointer { all -> Bool in
            let tail = UnsafeMutableBufferPointer(rebasing: all[start...])
            WebSocketMask.apply(mask, phase: phase, to: tail)
            return !isText || validator.validate(UnsafeBufferPointer(tail))
        }
        utf8 = validator
        if !valid { fail(WebSocketCloseCode.invalidPayload, "invalid UTF-8", into: &events) }
    }

    /// Acts on a frame whose payload is complete.
    private mutating func finishFrame(into events: inout [WebSocketSessionEvent]) {
        guard let header = frame else { return }
        frame = nil
        if discarding {
            if header.opcode == WebSocketOpcode.close {
                state = .closed
                events.append(.closeConnection)
            }
            return
        }
        switch header.opcode {
        case WebSocketOpcode.ping:
            // Answered at once, even between the fragments of a message (§5.5.2).
            var pong: [UInt8] = []
            pong.reserveCapacity(2 + control.count)
            WebSocketFrameHeader.encode(fin: true, opcode: WebSocketOpcode.pong, payloadLength: control.count, into: &pong)
            pong.append(contentsOf: control)
            control.removeAll(keepingCapacity: true)
            events.append(.send(pong))
        case WebSocketOpcode.pong:
            control.removeAll(keepingCapacity: true) // Unsolicited pongs are allowed and ignored (§5.5.3).
        case WebSocketOpcode.close:
            handleClose(into: &events)
        default:
            guard header.fin, let opcode = messageOpcode else { return }
            messageOpcode = nil
            // The buffer is handed over without copying (a text message as its checked UTF-8, not
            // decoded into a String); the next message starts a new one, sized by its first frame.
            if opcode == WebSocketOpcode.text {
                guard utf8.isComplete else { return fail(WebSocketCloseCode.invalidPayload, "invalid UTF-8", into: &events) }
                events.append(.message(WebSocketPayload(utf8Text: message)))
            } else {
                events.append(.message(.binary(message)))
            }
            message = []
        }
    }

    /// The peer's close frame (§5.5.1, §7.4): validate, echo its code, end the connection.
    private mutating func handleClose(into events: inout [WebSocketSessionEvent]) {
        let payload = control
        control.removeAll(keepingCapacity: true)
        if payload.count == 1 { return fail(WebSocketCloseCode.protocolError, "close payload of one byte", into: &events) }
        var reply: [UInt8] = []
        if payload.count >= 2 {
            let code = UInt16(payload[0]) << 8 | UInt16(payload[1])
            guard WebSocketCloseCode.isValidReceived(code) else {
                return fail(WebSocketCloseCode.protocolError, "invalid close code", into: &events)
            }
            let reasonIsValid = payload.withUnsafeBufferPointer { UTF8Validator.isValid(UnsafeBufferPointer(rebasing: $0[2...])) }
            guard reasonIsValid else { return fail(WebSocketCloseCode.invalidPayload, "invalid UTF-8 in close reason", into: &events) }
            reply = WebSocketSession.closeFrame(code: code, reason: "")
        } else {
            WebSocketFrameHeader.encode(fin: true, opcode: WebSocketOpcode.close, payloadLength: 0, into: &reply)
        }
        state = .closed
        releaseMessage()
        events.append(.send(reply))
        events.append(.closeConnection)
    }

    /// Fails the connection (§7.1.7): a close frame with `code` unless one was sent, then close.
    private mutating func fail(_ code: UInt16, _ reason: String, into events: inout [WebSocketSessionEvent]) {
        failure = (code, reason)
        if state == .open { events.append(.send(WebSocketSession.closeFrame(code: code, reason: reason))) }
        state = .closed
        frame = nil
        releaseMessage()
        events.append(.closeConnection)
    }

    private mutating func releaseMessage() {
        messageOpcode = nil
        message = []
        control = []
    }
}
