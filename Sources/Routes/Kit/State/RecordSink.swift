import HTTPServer

/// A part whose state the change log records element by element, so a change costs what it
/// changed, not the whole part: its snapshot's JSON is an object whose members are fields
/// (written whole when they change), keyed collections (an element upserted or deleted by key)
/// and lists (dropped at the front, appended at the back, as the outbox is).
package protocol RecordedSystem: PersistentSystem {
    /// Hands every member of the current state to `sink`, which compares each with what the
    /// log already holds and records only the difference. On the writer thread.
    func records(into sink: inout RecordSink)
}

/// One change of one part, as the log stores it (one line each).
package enum RecordOp: Equatable {
    /// The whole part (one not recorded element by element).
    case whole([UInt8])
    /// A field's JSON.
    case field(String, [UInt8])
    case upsert(String, key: String, json: [UInt8], moveToEnd: Bool)
    case delete(String, key: String)
    /// Keep `keep` elements of a list from `drop` on.
    case listCut(String, drop: Int, keep: Int)
    case listAppend(String, [UInt8])
}

/// What a part's state looks like as JSON pieces, member by member: the log's copy of it, from
/// which compaction writes the part without encoding it again. Owned by the writer thread.
package final class RecordImage {
    /// Members by name.
    package var members: [String: any ImageMember] = [:]
    /// The JSON of a part not recorded element by element.
    package var whole: [UInt8]?

    package init() {}

    /// The part's JSON: members sorted by name (as the snapshot encoder sorts keys).
    package func json() -> [UInt8] {
        if let whole { return whole }
        var out: [UInt8] = [UInt8(ascii: "{")]
        for (i, name) in members.keys.sorted().enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            JSONText.appendQuoted(name, to: &out)
            out.append(UInt8(ascii: ":"))
            members[name]?.appendJSON(to: &out)
        }
        out.append(UInt8(ascii: "}"))
        return out
    }

    /// The same pieces as bytes only, for replaying a log over them.
    package func rawCopy() -> RecordImage {
        let copy = RecordImage()
        copy.whole = whole
        for (name, member) in members { copy.members[name] = member.raw() }
        return copy
    }

    /// Applies a replayed op (to a `rawCopy`).
    package func apply(_ op: RecordOp) {
        switch op {
        case .field(let name, let bytes):
            members[name] = FieldMember(bytes)
        case .upsert(let name, let key, let json, let moveToEnd):
            let keyed = members[name] as? RawKeyed ?? RawKeyed()
            members[name] = keyed
            if let old = keyed.entries[key], !moveToEnd {
                keyed.entries[key] = (json, old.order)
            } else {
                keyed.entries[key] = (json, keyed.nextOrder)
                keyed.nextOrder += 1
            }
        case .delete(let name, let key):
            (members[name] as? RawKeyed)?.entries[key] = nil
        case .listCut(let name, let drop, let keep):
            let list = members[name] as? RawList ?? RawList()
            members[name] = list
            let from = min(drop, list.jsons.count), to = min(from + keep, list.jsons.count)
            list.jsons = Array(list.jsons[from..<to])
        case .listAppend(let name, let json):
            let list = members[name] as? RawList ?? RawList()
            members[name] = list
            list.jsons.append(json)
        case .whole(let json):
            whole = json
        }
    }

    /// A keyed collection's elements in their order: `[json,…]`, or `{"key":json,…}`.
    static func appendKeyed<S: Sequence>(_ entries: S, asObject: Bool, to out: inout [UInt8]) where S.Element == (String, [UInt8], Int) {
        let sorted = entries.sorted { $0.2 < $1.2 }
        guard asObject else { return appendArray(sorted.lazy.map(\.1), to: &out) }
        out.append(UInt8(ascii: "{"))
        for (i, entry) in sorted.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            JSONText.appendQuoted(entry.0, to: &out)
            out.append(UInt8(ascii: ":"))
            out.append(contentsOf: entry.1)
        }
        out.append(UInt8(ascii: "}"))
    }

    static func appendArray<S: Sequence>(_ elements: S, to out: inout [UInt8]) where S.Element == [UInt8] {
        out.append(UInt8(ascii: "["))
        var first = true
        for json in elements {
            if !first { out.append(UInt8(ascii: ",")) }
            first = false
            out.append(contentsOf: json)
        }
        out.append(UInt8(ascii: "]"))
    }

    /// `["text",…]`: strings quoted straight into `out`, no array per element.
    static func appendStrings<S: Sequence>(_ strings: S, to out: inout [UInt8]) where S.Element == String {
        out.append(UInt8(ascii: "["))
        var first = true
        for text in strings {
            if !first { out.append(UInt8(ascii: ",")) }
            first = false
            JSONText.appendQuoted(text, to: &out)
        }
        out.append(UInt8(ascii: "]"))
    }
}

/// One member of a part's image: its JSON, and the same as bytes only.
package protocol ImageMember: AnyObject {
    func appendJSON(to out: inout [UInt8])
    func raw() -> any ImageMember
}

final class FieldMember: ImageMember {
    package var json: [UInt8]
    package init(_ json: [UInt8]) { self.json = json }
    package func appendJSON(to out: inout [UInt8]) { out.append(contentsOf: json) }
    package func raw() -> any ImageMember { FieldMember(json) }
}

/// A keyed collection: each element with its JSON and its place (the order it was added in).
/// Written as an array of the elements, or (`asObject`) as an object of them by key.
final class KeyedMember<E: Equatable>: ImageMember {
    package var entries: [String: (element: E, json: [UInt8], order: Int)] = [:]
    var nextOrder = 0
    package var asObject = false
    package func appendJSON(to out: inout [UInt8]) {
        RecordImage.appendKeyed(entries.lazy.map { ($0.key, $0.value.json, $0.value.order) }, asObject: asObject, to: &out)
    }
    package func raw() -> any ImageMember {
        let raw = RawKeyed()
        for (key, entry) in entries { raw.entries[key] = (entry.json, entry.order) }
        raw.nextOrder = nextOrder
        raw.asObject = asObject
        return raw
    }
}

final class RawKeyed: ImageMember {
    package var entries: [String: (json: [UInt8], order: Int)] = [:]
    var nextOrder = 0
    package var asObject = false
    package func appendJSON(to out: inout [UInt8]) {
        RecordImage.appendKeyed(entries.lazy.map { ($0.key, $0.value.json, $0.value.order) }, asObject: asObject, to: &out)
    }
    package func raw() -> any ImageMember { self }
}

/// A list: its elements' JSON, oldest first, and the number one past the newest.
final class ListMember: ImageMember {
    var jsons: [[UInt8]] = []
    package var end: UInt64 = 0
    package func appendJSON(to out: inout [UInt8]) { RecordImage.appendArray(jsons, to: &out) }
    package func raw() -> any ImageMember {
        let raw = RawList()
        raw.jsons = jsons
        return raw
    }
}

final class RawList: ImageMember {
    var jsons: [[UInt8]] = []
    package func appendJSON(to out: inout [UInt8]) { RecordImage.appendArray(jsons, to: &out) }
    package func raw() -> any ImageMember { self }
}

/// Where a part hands its members (`RecordedSystem.records`): each is compared with the log's
/// image of it, and only the difference becomes ops.
package struct RecordSink {
    package let image: RecordImage
    package var ops: [RecordOp] = []

    package init(image: RecordImage) { self.image = image }

    /// A part recorded whole: its JSON when it changed.
    package mutating func whole(_ json: [UInt8]) {
        if image.whole == json { return }
        image.whole = json
        ops.append(.whole(json))
    }

    /// A small member written whole whenever its JSON changes.
    package mutating func field(_ name: String, json: [UInt8]) {
        if let old = image.members[name] as? FieldMember {
            if old.json == json { return }
            old.json = json
        } else {
            image.members[name] = FieldMember(json)
        }
        ops.append(.field(name, json))
    }

    /// A collection of elements with unique keys. An element new or different since the last
    /// call is encoded and upserted; one gone is deleted. `updateMovesToEnd`: an updated element
    /// counts as the newest (the order a bounded store evicts in).
    /// `asObject`: the collection's JSON is an object of the elements by key, not an array.
    package mutating func keyed<E: Equatable, S: Sequence>(_ name: String, _ elements: S, updateMovesToEnd: Bool = false, asObject: Bool = false,
                                                         encode: (String, E) -> [UInt8]) where S.Element == (String, E) {
        let keyedImage = image.members[name] as? KeyedMember<E> ?? KeyedMember<E>()
        keyedImage.asObject = asObject
        image.members[name] = keyedImage
        var seen = 0, added: [String] = []
        for (key, element) in elements {
            if upsert(name, keyedImage, key, element, updateMovesToEnd: updateMovesToEnd, encode: encode) { added.append(key) } else { seen += 1 }
        }
        // Gone: only looked for when fewer old keys were seen than the image holds (rare).
        if seen + added.count < keyedImage.entries.count {
            var live = Set(added)
            for (key, _) in elements { live.insert(key) }
            for key in keyedImage.entries.keys where !live.contains(key) {
                keyedImage.entries[key] = nil
                ops.append(.delete(name, key: key))
            }
        }
    }

    /// A keyed collection whose changed keys are known (`TouchedKeys`): only those are looked up,
    /// so a write costs the change, not the collection. Falls back to comparing `all()` when
    /// every element may have changed.
    /// `count` is the collection's size: an image of another size means a change went untold,
    /// and every element is compared.
    package mutating func keyed<E: Equatable, S: Sequence>(_ name: String, touched: TouchedKeys, count: Int, all: () -> S,
                                                         lookup: (String) -> E?, updateMovesToEnd: Bool = false, asObject: Bool = false,
                                                         encode: (String, E) -> [UInt8]) where S.Element == (String, E) {
        guard !touched.all, let keyedImage = image.members[name] as? KeyedMember<E> else {
            return keyed(name, all(), updateMovesToEnd: updateMovesToEnd, asObject: asObject, encode: encode)
        }
        for key in touched.keys {
            guard let element = lookup(key) else {
                if keyedImage.entries.removeValue(forKey: key) != nil { ops.append(.delete(name, key: key)) }
                continue
            }
            upsert(name, keyedImage, key, element, updateMovesToEnd: updateMovesToEnd, encode: encode)
        }
        if keyedImage.entries.count != count { keyed(name, all(), updateMovesToEnd: updateMovesToEnd, asObject: asObject, encode: encode) }
    }

    /// Puts `element` under `key` in the image and the ops, unless the image holds it already:
    /// an updated element keeps its place (or, `updateMovesToEnd`, becomes the newest), a new
    /// one goes last. Whether `key` was new.
    @discardableResult
    private mutating func upsert<E: Equatable>(_ name: String, _ keyedImage: KeyedMember<E>, _ key: String, _ element: E,
                                               updateMovesToEnd: Bool, encode: (String, E) -> [UInt8]) -> Bool {
        if let old = keyedImage.entries[key] {
            if old.element == element { return false }
            let order = updateMovesToEnd ? keyedImage.nextOrder : old.order
            if updateMovesToEnd { keyedImage.nextOrder += 1 }
            let json = encode(key, element)
            keyedImage.entries[key] = (element, json, order)
            ops.append(.upsert(name, key: key, json: json, moveToEnd: updateMovesToEnd))
            return false
        }
        let json = encode(key, element)
        keyedImage.entries[key] = (element, json, keyedImage.nextOrder)
        keyedImage.nextOrder += 1
        ops.append(.upsert(name, key: key, json: json, moveToEnd: false))
        return true
    }

    /// A list that drops from the front and grows at the back, its elements numbered by the part
    /// (`end`: one past the newest's number; the list holds `end - count ..< end`). What was
    /// dropped and added is found by the numbers, never by comparing elements: identical
    /// elements (the same SMS twice in a second) are common.
    package mutating func list<E>(_ name: String, _ elements: [E], end: UInt64, encode: (E) -> [UInt8]) {
        let listImage = image.members[name] as? ListMember ?? ListMember()
        image.members[name] = listImage
        let count = UInt64(elements.count), held = UInt64(listImage.jsons.count)
        if end == listImage.end && held == count { return }
        let start = end &- count, heldStart = listImage.end &- held
        var drop = listImage.jsons.count, keep = 0
        // Numbers that went backwards (a part restarted its count) share nothing: all is rewritten.
        if end >= listImage.end && start >= heldStart && start <= listImage.end {
            drop = Int(start - heldStart)
            keep = Int(listImage.end - start)
        }
        let add = elements[keep...].map(encode)
        listImage.jsons = Array(listImage.jsons[drop..<(drop + keep)]) + add
        listImage.end = end
        ops.append(.listCut(name, drop: drop, keep: keep))
        for json in add { ops.append(.listAppend(name, json)) }
    }
}
