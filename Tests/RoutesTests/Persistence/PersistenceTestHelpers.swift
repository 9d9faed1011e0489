import Foundation
import XCTest
import HTTPServer
@testable import Routes
import TestSupport

/// The `"systems"` object of a state file, parsed, with its change logs' committed records
/// applied (what a restart would load), read independently of the server's own code.
func stateSystems(_ path: String) throws -> [String: Any] {
    let data = try Data(contentsOf: URL(fileURLWithPath: path))
    let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
    var systems = object?["systems"] as? [String: Any] ?? [:]
    let base = object?["generation"] as? Int ?? 0
    let url = URL(fileURLWithPath: path)
    let prefix = url.lastPathComponent + ".log."
    let names = (try? FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path)) ?? []
    for generation in names.compactMap({ $0.hasPrefix(prefix) ? Int($0.dropFirst(prefix.count)) : nil }).sorted() where generation >= base {
        let text = (try? String(contentsOfFile: path + ".log.\(generation)", encoding: .utf8)) ?? ""
        var group: [([String: Any], Any?)] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            let parts = line.split(separator: "\t", maxSplits: 1)
            guard let header = try? JSONSerialization.jsonObject(with: Data(parts[0].utf8)) as? [String: Any] else { break }
            if header["commit"] != nil {
                for (h, v) in group { applyRecord(h, v, to: &systems) }
                group = []
                continue
            }
            let value = parts.count > 1 ? try? JSONSerialization.jsonObject(with: Data(parts[1].utf8), options: .fragmentsAllowed) : nil
            group.append((header, value))
        }
    }
    return systems
}

/// The key a collection's element is recorded under in the change log.
private func recordKey(_ collection: String, _ element: [String: Any]) -> String {
    switch collection {
    case "accounts": return "\((element["profile"] as? [String: Any])?["id"] as? Int ?? -1)"
    case "codes": return element["phone"] as? String ?? ""
    case "sessions", "tokens": return element["token"] as? String ?? ""
    default: return element["id"] as? String ?? ""
    }
}

private func applyRecord(_ header: [String: Any], _ value: Any?, to systems: inout [String: Any]) {
    guard let part = header["p"] as? String else { return }
    if header["w"] != nil { systems[part] = value; return }
    var object = systems[part] as? [String: Any] ?? [:]
    defer { systems[part] = object }
    if let field = header["f"] as? String { object[field] = value; return }
    guard let name = header["c"] as? String else { return }
    var list = object[name] as? [[String: Any]] ?? []
    defer { object[name] = list }
    if let key = header["k"] as? String {
        let index = list.firstIndex { recordKey(name, $0) == key }
        if header["d"] != nil { if let index { list.remove(at: index) }; return }
        guard let element = value as? [String: Any] else { return }
        if let index, header["m"] == nil { list[index] = element } else {
            if let index { list.remove(at: index) }
            list.append(element)
        }
    } else if header["a"] != nil, let element = value as? [String: Any] {
        list.append(element)
    } else if let drop = header["drop"] as? Int, let keep = header["keep"] as? Int {
        let from = min(drop, list.count)
        list = Array(list[from..<min(from + keep, list.count)])
    }
}

/// The phones of the SMS kept in a state file (empty when it cannot be read).
func statePhones(_ path: String) -> [String] {
    let systems = (try? stateSystems(path)) ?? [:]
    let sms = (systems["outbox"] as? [String: Any])?["sms"] as? [[String: Any]] ?? []
    return sms.compactMap { $0["phone"] as? String }
}
