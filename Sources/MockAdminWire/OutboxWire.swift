#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An SMS the mock "sent" (`GET /__mock/sms`): the normalised phone, the text, and the code or
/// password it carries.
public struct MockSMS: Codable, Sendable, Equatable {
    /// The number, normalised (`9123456789`) however the app wrote it.
    public var phone: String
    /// The whole text, as the phone would show it.
    public var text: String
    /// The code or password it carries; nil when it carries none.
    public var code: String?
    /// When it was sent, by the mock's clock.
    public var sentAt: Date

    /// An SMS with these parts (for a test's own expectations; the server makes the real ones).
    public init(phone: String, text: String, code: String?, sentAt: Date) {
        self.phone = phone
        self.text = text
        self.code = code
        self.sentAt = sentAt
    }

    private enum CodingKeys: String, CodingKey { case phone, text, code, sentAt }

    /// Reads an SMS as the server writes it (`sentAt` in the one date form of `/__mock/`).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        phone = try c.decode(String.self, forKey: .phone)
        text = try c.decode(String.self, forKey: .text)
        code = try c.decodeIfPresent(String.self, forKey: .code)
        sentAt = try c.decodeWireDate(forKey: .sentAt)
    }

    /// Every key is always written (`"code": null` when none), so clients see one shape.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(phone, forKey: .phone)
        try c.encode(text, forKey: .text)
        try c.encode(code, forKey: .code)
        try c.encodeWireDate(sentAt, forKey: .sentAt)
    }
}

/// An e-mail the mock "sent" (`GET /__mock/emails`), with the confirmation link it carries.
public struct MockEmail: Codable, Sendable, Equatable {
    /// The address it went to.
    public var to: String
    /// The subject line.
    public var subject: String
    /// The text of the message.
    public var body: String
    /// The confirmation link it carries (open it to confirm); nil when it carries none.
    public var link: String?
    /// When it was sent, by the mock's clock.
    public var sentAt: Date

    /// An e-mail with these parts (for a test's own expectations; the server makes the real ones).
    public init(to: String, subject: String, body: String, link: String?, sentAt: Date) {
        self.to = to
        self.subject = subject
        self.body = body
        self.link = link
        self.sentAt = sentAt
    }

    private enum CodingKeys: String, CodingKey { case to, subject, body, link, sentAt }

    /// Reads an e-mail as the server writes it (`sentAt` in the one date form of `/__mock/`).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        to = try c.decode(String.self, forKey: .to)
        subject = try c.decode(String.self, forKey: .subject)
        body = try c.decode(String.self, forKey: .body)
        link = try c.decodeIfPresent(String.self, forKey: .link)
        sentAt = try c.decodeWireDate(forKey: .sentAt)
    }

    /// Every key is always written (`"link": null` when none), so clients see one shape.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(to, forKey: .to)
        try c.encode(subject, forKey: .subject)
        try c.encode(body, forKey: .body)
        try c.encode(link, forKey: .link)
        try c.encodeWireDate(sentAt, forKey: .sentAt)
    }
}
