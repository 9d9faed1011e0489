#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPServer

/// The admin calls WireMock 2.35.1's own clients make beyond the mapping CRUD: the older
/// `POST /__admin/mappings/edit` and `/remove` (what the Java client's `editStub` and `removeStub`
/// send), one scenario's state, one serve event, and the journal's paging and filters.
extension StubAdmin {
    /// `POST /__admin/mappings/edit`: the body is a whole mapping whose `id` (or `uuid`) names the
    /// one it replaces; 204 as WireMock answers it.
    package var editByBodyHandler: HTTPHandler {
        let admin = self
        return { request, _ in
            do throws(StubChangeError) {
                let (id, mapping) = try StubAdmin.checkedMapping(request.body, admin.store.filesRoot, needsId: true)
                let (found, hint) = try admin.store.replaceSaving(id: id, with: mapping)
                guard found else { return StubAdmin.notFound }
                let done = HTTPResponse(status: .noContent)
                return hint.map(done.hinted) ?? done
            } catch {
                return error.response
            }
        }
    }

    /// `POST /__admin/mappings/remove`: the body is a mapping; the one with its `id` (or `uuid`)
    /// is removed, or, when it names none, every mapping whose request pattern is the body's
    /// (WireMock's `SortedConcurrentMappingSet.remove`). 200 either way, as WireMock.
    package var removeByBodyHandler: HTTPHandler {
        let admin = self
        return { request, _ in
            do throws(StubChangeError) {
                let (id, mapping) = try StubAdmin.checkedMapping(request.body, admin.store.filesRoot, needsId: false)
                if !id.isEmpty, try admin.store.removeSaving(id: id) { return StubAdmin.emptyOK }
                let pattern = StubAdmin.canonical(mapping.json["request"] ?? .null)
                for other in admin.store.mappings where StubAdmin.canonical(other.json["request"] ?? .null) == pattern {
                    _ = try admin.store.removeSaving(id: other.id)
                }
                return StubAdmin.emptyOK
            } catch {
                return error.response
            }
        }
    }

    /// `PUT /__admin/scenarios/{name}/state`: `{"state": "…"}` sets it, an empty body resets it to
    /// `Started`; an unknown scenario is WireMock's 404 (`Scenario NAME does not exist`).
    package var scenarioStateHandler: HTTPHandler {
        let admin = self
        return { request, context in
            let name = context.pathParameters["name"] ?? ""
            var state: String?
            if request.body.contains(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }) {
                do throws(StubProblem) {
                    let object = try StrictObject(try StubAdmin.parse(request.body).get(), at: "", what: "the body")
                    try object.allow(["state"])
                    guard let given = try object.string("state") else { throw StubProblem("/state", "\"state\" is required; send no body to reset the scenario to Started") }
                    state = given
                } catch {
                    return error.response
                }
            }
            guard admin.store.setScenario(name, to: state) else {
                return StubAdmin.json(.notFound, ["errors": [["code": 404, "title": .string("Scenario \(name) does not exist")]]])
                    .hinted(StubProblem.ascii("no scenario is named \(name) (GET /__admin/scenarios lists them)"))
            }
            return StubAdmin.emptyOK
        }
    }

    /// `GET /__admin/requests/{id}`: one serve event, by the id `/__admin/requests` gave it.
    package var servedRequestHandler: HTTPHandler {
        let admin = self
        return { _, context in
            let id = (context.pathParameters["id"] ?? "").lowercased()
            guard let found = admin.journal.loggedRequests().first(where: { $0.uuid == id }) else {
                return HTTPResponse.json(.notFound, bytes: Array("{}".utf8)).hinted("no journaled request has that id (GET /__admin/requests lists them)")
            }
            return StubAdmin.json(.ok, admin.serveEvent(found))
        }
    }

    /// The serve event of a journaled request, with the mapping that answered it when it is still loaded.
    func serveEvent(_ logged: StubLoggedRequest) -> JSONValue {
        logged.serveEventJSON(mapping: logged.stub.flatMap { store.mapping(id: $0.id) })
    }

    /// A mapping from an admin body, and the id it names (lowercased; "" when it names none).
    private static func checkedMapping(_ body: [UInt8], _ filesRoot: String?, needsId: Bool) throws(StubChangeError) -> (String, StubMapping) {
        do throws(StubProblem) {
            let value = try parse(body).get()
            guard value.isObject else { throw StubProblem("/", "the body must be one mapping object") }
            let id = (value["id"]?.string ?? value["uuid"]?.string ?? "").lowercased()
            if needsId && id.isEmpty { throw StubProblem("/id", "the mapping to edit is named by its \"id\" (or \"uuid\"); PUT /__admin/mappings/{id} takes it in the path") }
            var generator = SystemRandomNumberGenerator()
            let named = id.isEmpty ? value : value.stubSetting("id", .string(id)).stubSetting("uuid", .string(id))
            return (id, try StubMapping.decode(named, filesRoot: filesRoot, newId: id.isEmpty ? UUIDString.random(using: &generator) : id))
        } catch {
            throw .refused(error)
        }
    }

    /// A JSON value with every object's members sorted by key, so two spellings of one request
    /// pattern compare equal.
    static func canonical(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(let members): return .object(members.map { (key: $0.key, value: canonical($0.value)) }.sorted { $0.key < $1.key })
        case .array(let items): return .array(items.map(canonical))
        default: return value
        }
    }
}

/// `GET /__admin/mappings?limit&offset` and `GET /__admin/requests?limit&since&unmatched&matchingStub`,
/// as WireMock pages and filters them; any other parameter is refused, never ignored.
enum StubAdminQuery {
    /// A page of `items` (`meta.total` counts them all), or the 400 for a bad parameter.
    static func page<T>(_ items: [T], _ parameters: Parameters, allowed: Set<String>) -> Result<[T], StubProblem> {
        for item in parameters where !allowed.contains(item.name) {
            return .failure(StubProblem("/" + item.name, "the query parameter \(item.name) is not supported here (known: \(allowed.sorted().joined(separator: ", ")))"))
        }
        let limit: Int?, offset: Int?
        switch (count("limit", parameters), count("offset", parameters)) {
        case (.failure(let problem), _), (_, .failure(let problem)): return .failure(problem)
        case (.success(let l), .success(let o)): (limit, offset) = (l, o)
        }
        let start = min(items.count, offset ?? 0)
        let end = min(items.count, start + (limit ?? items.count))
        return .success(Array(items[start..<end]))
    }

    /// A non-negative whole number parameter, nil when absent.
    static func count(_ name: String, _ parameters: Parameters) -> Result<Int?, StubProblem> {
        guard let text = parameters.first(name) else { return .success(nil) }
        guard let value = Int(text), value >= 0 else { return .failure(StubProblem("/" + name, "\(name) must be 0 or greater, not \(text)")) }
        return .success(value)
    }

    /// `since`: an ISO 8601 date-time; nil when absent.
    static func since(_ parameters: Parameters) -> Result<Date?, StubProblem> {
        guard let text = parameters.first("since") else { return .success(nil) }
        guard let date = try? Date(text, strategy: .iso8601) else {
            return .failure(StubProblem("/since", "since must be an ISO 8601 date-time such as 2026-12-05T10:00:00Z, not \(text)"))
        }
        return .success(date)
    }

    /// WireMock answers a bad paging parameter 400 with its error shape.
    static func badRequest(_ problem: StubProblem) -> HTTPResponse {
        HTTPResponse.json(.badRequest, bytes: Array(problem.json.jsonText.utf8)).hinted(StubProblem.ascii(problem.description))
    }
}
