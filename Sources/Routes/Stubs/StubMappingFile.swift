#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPServer

/// Where a mapping is on disk: its file under `DIR/mappings`, and whether that file holds several
/// mappings (an array or `{"mappings": [...]}`), which the server never rewrites (as WireMock).
package struct StubFileOrigin: Sendable, Equatable {
    package let path: String
    package let holdsSeveral: Bool
    /// The file as the log names it: its path under `folder` (`DIR/mappings`), made once.
    package let label: String

    package init(path: String, holdsSeveral: Bool, folder: String) {
        self.path = path
        self.holdsSeveral = holdsSeveral
        let prefix = folder.utf8.count + 1
        label = path.hasPrefix(folder + "/") ? String(decoding: path.utf8.dropFirst(prefix), as: UTF8.self) : path
    }
}

/// A mapping as the server writes it to the `--mappings` folder (`persistent: true`, or
/// `POST /__admin/mappings/save`): one file per mapping, named as WireMock 2.35 names them
/// (`SafeNames`), the mapping as `GET /__admin/mappings/{id}` shows it, indented.
enum StubMappingFile {
    /// The file's name: the mapping's name, else its URL, made safe, then `-<id>.json`; just
    /// `<id>.json` for a mapping without either. WireMock keeps ASCII letters, digits, `_` and
    /// `-` (whitespace becomes `-`, `/` and the rest are dropped) after stripping accents; here
    /// every non-ASCII character is dropped. At most 200 characters before the id, lower case.
    static func name(for mapping: StubMapping) -> String {
        let suffix = "-" + mapping.id + ".json"
        if let name = mapping.name, !name.isEmpty {
            let safe = safeName(name)
            return safe.isEmpty ? mapping.id + ".json" : safe + suffix
        }
        let request = mapping.json["request"]
        guard let url = ["url", "urlPath", "urlPattern", "urlPathPattern"].lazy.compactMap({ request?[$0]?.string }).first else {
            return mapping.id + ".json"
        }
        let safe = safeName(url)
        return safe.isEmpty ? mapping.id + ".json" : safe + suffix
    }

    static func safeName(_ text: String) -> String {
        var kept = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar {
            case " ", "\t", "\n", "\r", "\u{0B}", "\u{0C}": kept.append("-")
            case "a"..."z", "A"..."Z", "0"..."9", "_", "-": kept.append(scalar)
            default: break
            }
        }
        var slug = Substring(String(kept))
        while slug.first == "_" { slug.removeFirst() }
        while slug.last == "_" { slug.removeLast() }
        return String(slug.prefix(200)).lowercased()
    }

    /// The file's bytes: the mapping's JSON, two spaces an indent, ending in a line feed.
    static func contents(of mapping: StubMapping) -> Data {
        var text = ""
        indented(mapping.json, depth: 0, into: &text)
        text += "\n"
        return Data(text.utf8)
    }

    private static func indented(_ value: JSONValue, depth: Int, into text: inout String) {
        let inner = String(repeating: "  ", count: depth + 1), outer = String(repeating: "  ", count: depth)
        switch value {
        case .object(let members) where !members.isEmpty:
            text += "{\n"
            for (i, member) in members.enumerated() {
                text += inner + JSONText.quoted(member.key) + ": "
                indented(member.value, depth: depth + 1, into: &text)
                text += i == members.count - 1 ? "\n" : ",\n"
            }
            text += outer + "}"
        case .array(let items) where !items.isEmpty:
            text += "[\n"
            for (i, item) in items.enumerated() {
                text += inner
                indented(item, depth: depth + 1, into: &text)
                text += i == items.count - 1 ? "\n" : ",\n"
            }
            text += outer + "]"
        default:
            text += value.jsonText
        }
    }
}

extension StubMapping {
    /// `"persistent": true`: the mapping is kept in the `--mappings` folder.
    var isPersistent: Bool { json["persistent"] == .bool(true) }

    /// The same mapping with `"persistent": true` (`POST /__admin/mappings/save` marks what it writes).
    var markedPersistent: StubMapping {
        StubMapping(id: id, name: name, priority: priority, request: request, response: response, scenarioName: scenarioName,
                    requiredScenarioState: requiredScenarioState, newScenarioState: newScenarioState, webhooks: webhooks,
                    json: json.stubSetting("persistent", true))
    }
}
