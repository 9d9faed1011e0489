/// Texts a caller reads on a hot path (its keys, a message type): a parse given them returns
/// the caller's own `String` for each, without decoding and checking the bytes again. The words belong to the caller, written as a `switch` over string
/// literals (a literal costs nothing to create or release); the parser knows none of its own.
///
/// `@usableFromInline`: used on hot paths in other targets (a system's words are a constant only
/// when this initialiser is visible to it); the optimiser copies into another module only the
/// bodies it may see from there (README, "Layout").
@usableFromInline package struct JSONWords: Sendable {
    @usableFromInline let lookup: (@Sendable (UnsafeBufferPointer<UInt8>) -> String?)?

    /// `lookup` returns the literal the bytes spell, or nil; `spells` compares them.
    @usableFromInline
    package init(_ lookup: @escaping @Sendable (UnsafeBufferPointer<UInt8>) -> String?) { self.lookup = lookup }

    @usableFromInline init() { lookup = nil }

    /// No words: every text is decoded.
    @usableFromInline package static let none = JSONWords()

    /// Whether `text` spells `literal` (for a caller's lookup; check the length first).
    @inlinable
    package static func spells(_ text: UnsafeBufferPointer<UInt8>, _ literal: StaticString) -> Bool {
        guard text.count == literal.utf8CodeUnitCount else { return false }
        let spelled = literal.utf8Start
        for k in 0..<text.count where text[k] != spelled[k] { return false }
        return true
    }
}
