/// Deterministic lorem-ipsum paragraphs: the same seed and index always give the same text,
/// so clients that cache pages and compare them see stable rows.
enum LoremIpsum {
    static let words = [
        "lorem", "ipsum", "dolor", "sit", "amet", "consectetur", "adipisicing", "elit", "sed", "do",
        "eiusmod", "tempor", "incididunt", "ut", "labore", "et", "dolore", "magna", "aliqua", "enim",
        "ad", "minim", "veniam", "quis", "nostrud", "exercitation", "ullamco", "laboris", "nisi",
        "aliquip", "ex", "ea", "commodo", "consequat", "duis", "aute", "irure", "in", "reprehenderit",
        "voluptate", "velit", "esse", "cillum", "eu", "fugiat", "nulla", "pariatur", "excepteur",
        "sint", "occaecat", "cupidatat", "non", "proident", "sunt", "culpa", "qui", "officia",
        "deserunt", "mollit", "anim", "id", "est", "laborum",
    ]

    /// Paragraphs end once they reach this many characters…
    static let minimumLength = 250
    /// …and a sentence stops early rather than pass this many (the document's samples are ~300).
    static let maximumLength = 300

    /// A paragraph of a few sentences, 250–300 characters.
    static func paragraph(seed: UInt64, index: UInt64) -> String {
        var rng = SplitMix64(state: seed &* 0x9E37_79B9_7F4A_7C15 ^ index &* 0xD1B5_4A32_D192_ED03)
        var text = ""
        while text.utf8.count < minimumLength {
            if !text.isEmpty { text += " " }
            let wanted = 4 + Int(rng.next() % 11)
            var sentence = ""
            for i in 0..<wanted {
                let word = words[Int(rng.next() % UInt64(words.count))]
                // Keep at least two words, so a sentence is never a lone word.
                if i >= 2 && text.utf8.count + sentence.utf8.count + 1 + word.utf8.count + 1 > maximumLength { break }
                if i == 0 {
                    sentence = word.prefix(1).uppercased() + word.dropFirst()
                } else {
                    sentence += " " + word
                }
            }
            text += sentence + "."
        }
        return text
    }
}

/// SplitMix64: tiny, fast and good enough for filler text (not for tokens).
struct SplitMix64 {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
