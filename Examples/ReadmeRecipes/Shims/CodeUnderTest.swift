// The app code the recipes call "your code under test": only its shape matters here.
import Foundation

struct APIClient: Sendable {
    let baseURL: URL
    init(baseURL: URL) { self.baseURL = baseURL }
    func requestSMS(phone: String) async throws {}
}
