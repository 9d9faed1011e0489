import Foundation

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
}
