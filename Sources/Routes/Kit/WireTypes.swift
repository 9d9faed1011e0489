import MockAdminWire

// The JSON shapes of /__mock/ are MockAdminWire's, shared with the admin client; these are their
// names on the server's side.

/// One account as the console and `GET /__mock/accounts` show it (never a password; tokens as
/// their first 4 characters and `…`).
package typealias AccountSummary = MockAccount

/// An SMS the mock "sent": what a real backend would have delivered to a phone.
package typealias SentSMS = MockSMS

/// An e-mail the mock "sent": what a real backend would have delivered to a mailbox.
package typealias SentEmail = MockEmail

/// The one date form under `/__mock/` (`2026-11-22T11:14:30Z`): the journal's `at`, `sentAt`, the
/// clock's `now`, sessions' `expiresAt`, events.
package typealias ISO8601 = WireDate
