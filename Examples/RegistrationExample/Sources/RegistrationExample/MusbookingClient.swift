import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What an app's networking layer looks like: form-encoded musbooking calls on URLSession.
public struct MusbookingClient: Sendable {
    public let baseURL: URL

    public init(baseURL: URL) { self.baseURL = baseURL }

    public struct Failure: Error, CustomStringConvertible, Sendable { public let description: String }

    /// `POST /api/users/sms`: the server "sends" a code to the phone.
    public func requestCode(phone: String) async throws {
        _ = try await post("api/users/sms", ["phone": phone])
    }

    /// `POST /api/users/register`; returns the account's login.
    public func register(name: String, phone: String, code: String, password: String) async throws -> String {
        let data = try await post("api/users/register", ["name": name, "phone": phone, "code": code, "password": password])
        struct Answer: Decodable { let login: String }
        return try JSONDecoder().decode(Answer.self, from: data).login
    }

    /// `POST /api/auth/login`; returns the token.
    public func login(_ login: String, password: String) async throws -> String {
        let data = try await post("api/auth/login", ["login": login, "password": password])
        struct Answer: Decodable { let token: String }
        return try JSONDecoder().decode(Answer.self, from: data).token
    }

    private func post(_ path: String, _ form: [String: String]) async throws -> Data {
        var request = URLRequest(url: baseURL.appendingPathComponent(path))
        request.httpMethod = "POST"
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._*")
        request.httpBody = Data(form.sorted { $0.key < $1.key }.map {
            "\($0.key)=\($0.value.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")"
        }.joined(separator: "&").utf8)
        let (data, response) = try await URLSession.shared.data(for: request)
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        guard status == 200 else { throw Failure(description: "\(path): \(status) \(String(decoding: data, as: UTF8.self))") }
        return data
    }
}
