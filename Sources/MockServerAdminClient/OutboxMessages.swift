import Foundation

/// An SMS the mock "sent" (`GET /__mock/sms`): the normalised phone, the text, and the code or
/// password it carries.
public struct MockSMS: Codable, Sendable, Equatable {
    public var phone: String
    public var text: String
    public var code: String?
    public var sentAt: Date

    public init(phone: String, text: String, code: String?, sentAt: Date) {
        self.phone = phone
        self.text = text
        self.code = code
        self.sentAt = sentAt
    }
}

/// An e-mail the mock "sent" (`GET /__mock/emails`), with the confirmation link it carries.
public struct MockEmail: Codable, Sendable, Equatable {
    public var to: String
    public var subject: String
    public var body: String
    public var link: String?
    public var sentAt: Date

    public init(to: String, subject: String, body: String, link: String?, sentAt: Date) {
        self.to = to
        self.subject = subject
        self.body = body
        self.link = link
        self.sentAt = sentAt
    }
}
