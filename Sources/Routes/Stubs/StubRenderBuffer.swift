/// Why a template stopped rendering: its output passed the cap, or a `jsonPath` its steps.
enum StubRenderFailure: Error, Sendable {
    case tooLarge(limit: Int)
    case overBudget(String)
    /// A helper could not render (a zone that is not installed, a bad date format, a division by zero).
    case invalid(String)

    /// The reason, for the 500's body and `X-Mock-Hint` (never any rendered text).
    var reason: String {
        switch self {
        case .tooLarge(let limit):
            return "the rendered answer passed \(limit) bytes (--max-stub-body-bytes); rendering stopped there"
        case .overBudget(let what):
            return "\(what) gave up after \(StubBudget.matchSteps) steps"
        case .invalid(let why):
            return "the response template failed: \(why)"
        }
    }
}

/// A template's output, which refuses to grow past its limit: rendering stops at the first
/// piece that does not fit, so an answer is never built first and measured after.
struct StubRenderBuffer {
    private(set) var bytes: [UInt8] = []
    let limit: Int
    /// Set once a piece did not fit (or a step budget ran out); later pieces are ignored.
    private(set) var failure: StubRenderFailure?

    init(limit: Int) { self.limit = limit }

    /// Bytes that still fit.
    var remaining: Int { limit - bytes.count }

    mutating func fail(_ failure: StubRenderFailure) {
        if self.failure == nil { self.failure = failure }
    }

    /// Appends `text`, HTML-escaped as Handlebars' `{{…}}` when `escaped`.
    mutating func append(_ text: String, escaped: Bool = false) {
        guard failure == nil else { return }
        let utf8 = text.utf8
        if !escaped || !utf8.contains(where: StubRenderBuffer.needsEscape) {
            guard utf8.count <= remaining else { return fail(.tooLarge(limit: limit)) }
            bytes.append(contentsOf: utf8)
            return
        }
        for byte in utf8 {
            let entity: StaticString
            switch byte {
            case UInt8(ascii: "&"): entity = "&amp;"
            case UInt8(ascii: "<"): entity = "&lt;"
            case UInt8(ascii: ">"): entity = "&gt;"
            case UInt8(ascii: "\""): entity = "&quot;"
            case UInt8(ascii: "'"): entity = "&#x27;"
            case UInt8(ascii: "`"): entity = "&#x60;"
            case UInt8(ascii: "="): entity = "&#x3D;"
            default:
                guard remaining >= 1 else { return fail(.tooLarge(limit: limit)) }
                bytes.append(byte)
                continue
            }
            guard entity.utf8CodeUnitCount <= remaining else { return fail(.tooLarge(limit: limit)) }
            entity.withUTF8Buffer { bytes.append(contentsOf: $0) }
        }
    }

    /// Appends bytes already escaped as they need (random characters).
    mutating func append(bytes more: some Collection<UInt8>) {
        guard failure == nil else { return }
        guard more.count <= remaining else { return fail(.tooLarge(limit: limit)) }
        bytes.append(contentsOf: more)
    }

    /// The characters Handlebars escapes in `{{…}}`.
    static func needsEscape(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "&"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "`"), UInt8(ascii: "="):
            return true
        default: return false
        }
    }
}
