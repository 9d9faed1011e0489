#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPServer
import EmulationKit

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
                let (id, mapping) = try StubAdmin.checkedMapping(request.body, admin.store, needsId: true)
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
                let (id, mapping) = try StubAdmin.checkedMapping(request.body, admin.store, needsId: false)
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
            switch admin.store.setScenario(name, to: state) {
            case .done: return StubAdmin.emptyOK
            case .unknownScenario:
                return StubAdmin.json(.notFound, ["errors": [["code": 404, "title": .string("Scenario \(name) does not exist")]]])
                    .hinted(StubProblem.ascii("no scenario is named \(name) (GET /__admin/scenarios lists them)"))
            case .unknownState(let possible):
                return StubAdmin.json(HTTPStatus(code: 422), ["errors": [["code": 11, "title": .string("Scenario \(name) does not support state \(state ?? "")")]]])
                    .hinted(StubProblem.ascii("scenario \(name) has the states \(possible.joined(separator: ", ")); its mappings name no other"))
            }
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

    /// A mapping from an admin body, read as `POST /__admin/mappings` reads one (the decoder's
    /// rule for `id` and `uuid`, `--global-response-templating`), and the id the body names
    /// (lowercased; "" when it names none).
    private static func checkedMapping(_ body: [UInt8], _ store: StubStore, needsId: Bool) throws(StubChangeError) -> (String, StubMapping) {
        do throws(StubProblem) {
            let value = try parse(body).get()
            guard value.isObject else { throw StubProblem("/", "the body must be one mapping object") }
            let named = ["id", "uuid"].contains { !(value[$0]?.string ?? "").isEmpty }
            if needsId && !named { throw StubProblem("/id", "the mapping to edit is named by its \"id\" (or \"uuid\"); PUT /__admin/mappings/{id} takes it in the path") }
            var generator = SystemRandomNumberGenerator()
            let mapping = try StubMapping.decode(value, filesRoot: store.filesRoot, newId: UUIDText.random(using: &generator),
                                                 templateAll: store.templateAll)
            return (named ? mapping.id : "", mapping)
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
            return .failure(StubProblem("since", "since must be an ISO 8601 date-time such as 2026-12-05T10:00:00Z, not \(text)"))
        }
        return .success(date)
    }

    /// WireMock answers a bad paging parameter 400 with its error shape (`title`: WireMock's own
    /// words, where its clients read them).
    static func badRequest(_ problem: StubProblem, title: String? = nil) -> HTTPResponse {
        var body = problem.json
        if let title {
            body = ["errors": [["code": 10, "source": ["pointer": .string(problem.pointer)], "title": .string(title), "detail": .string(problem.detail)]]]
        }
        return HTTPResponse.json(.badRequest, bytes: Array(body.jsonText.utf8)).hinted(StubProblem.ascii(problem.description))
    }
}

/// WireMock's removals from the journal and its metadata queries over the mappings.
extension StubAdmin {
    /// `DELETE /__admin/requests/{id}`: 200 `{}` whether or not the journal still had it (WireMock).
    package var removeServedRequestHandler: HTTPHandler {
        let admin = self
        return { _, context in
            let id = (context.pathParameters["id"] ?? "").lowercased()
            let ids = Set(admin.journal.loggedRequests().filter { $0.uuid == id }.map(\.id))
            if !ids.isEmpty { admin.journal.removeRequests(ids: ids) }
            return StubAdmin.emptyOK
        }
    }

    /// `POST /__admin/requests/remove`: a request pattern; the events it matches are removed and
    /// listed (`{"serveEvents": [...]}`).
    package var removeRequestsHandler: HTTPHandler {
        let admin = self
        return { request, _ in
            switch admin.matching(request) {
            case .failure(let problem): return problem.response
            case .success(let found): return admin.removed(found)
            }
        }
    }

    /// `POST /__admin/requests/remove-by-metadata`: a string matcher over the answering mapping's
    /// `metadata` (as JSON text); those events are removed and listed.
    package var removeRequestsByMetadataHandler: HTTPHandler {
        let admin = self
        return { request, _ in
            switch admin.metadataMatches(request) {
            case .failure(let problem): return problem.response
            case .success(let ids):
                return admin.removed(admin.journal.loggedRequests().filter { $0.stub.map { ids.contains($0.id) } ?? false })
            }
        }
    }

    /// `POST /__admin/mappings/find-by-metadata`: the mappings whose `metadata` the matcher matches.
    package var findByMetadataHandler: HTTPHandler {
        let admin = self
        return { request, _ in
            switch admin.metadataMatches(request) {
            case .failure(let problem): return problem.response
            case .success(let ids):
                let found = admin.store.mappings.filter { ids.contains($0.id) }
                return StubAdmin.json(.ok, ["mappings": .array(found.map(\.json)), "meta": ["total": .number(Double(found.count))]])
            }
        }
    }

    /// `POST /__admin/mappings/remove-by-metadata`: those mappings removed (a persistent one's file too).
    package var removeByMetadataHandler: HTTPHandler {
        let admin = self
        return { request, _ in
            switch admin.metadataMatches(request) {
            case .failure(let problem): return problem.response
            case .success(let ids):
                do throws(StubChangeError) {
                    for id in ids.sorted() { _ = try admin.store.removeSaving(id: id) }
                    return StubAdmin.emptyOK
                } catch {
                    return error.response
                }
            }
        }
    }

    /// Removes `found` from the journal and lists them as WireMock does.
    private func removed(_ found: [StubLoggedRequest]) -> HTTPResponse {
        journal.removeRequests(ids: Set(found.map(\.id)))
        return StubAdmin.json(.ok, ["serveEvents": .array(found.reversed().map(serveEvent))])
    }

    /// The ids of the mappings whose `metadata`, as JSON text, the body's string matcher matches
    /// (WireMock matches `Json.write(metadata)`); a mapping without metadata is matched as `{}`.
    private func metadataMatches(_ request: HTTPRequest) -> Result<Set<String>, StubProblem> {
        do throws(StubProblem) {
            let pattern = try StringPattern.decode(try StubAdmin.parse(request.body).get(), at: "")
            let now = store.now()
            return .success(Set(store.mappings.filter { pattern.matches(($0.json["metadata"] ?? .object([])).jsonText, now: now) }.map(\.id)))
        } catch {
            return .failure(error)
        }
    }
}

/// `/__admin/files` and `/__admin/settings`, as WireMock answers them.
extension StubAdmin {
    /// `GET /__admin/files`: every file under `__files`, at any depth, as sorted full paths
    /// (WireMock's `GetAllStubFilesTask`); `[]` without a `--mappings` folder.
    package var filesHandler: HTTPHandler {
        let admin = self
        return { _, _ in
            guard let root = admin.store.filesRoot else { return StubAdmin.json(.ok, .array([])) }
            return StubAdmin.json(.ok, .array(StubFiles.allFiles(under: root).sorted().map(JSONValue.string)))
        }
    }

    /// `GET /__admin/settings`: the global settings, `{"settings": {}}` while none is set.
    package var settingsHandler: HTTPHandler {
        let store = self.store
        return { _, _ in StubAdmin.json(.ok, store.globalSettings.withLock { $0 }.json) }
    }

    /// `PUT`/`POST /__admin/settings`: replaces the global settings (a field left out is unset);
    /// 200 with no body, as WireMock.
    package var settingsUpdateHandler: HTTPHandler {
        let store = self.store
        return { request, _ in
            do throws(StubProblem) {
                let settings = try StubGlobalSettings.decode(try StubAdmin.parse(request.body).get())
                try store.updateGlobalSettings { $0 = settings }
                return HTTPResponse(status: .ok)
            } catch {
                return error.response
            }
        }
    }

    /// `PATCH /__admin/settings/extended`: `{"extended": {...}}` merged into the kept `extended`.
    package var settingsExtendedPatchHandler: HTTPHandler {
        let store = self.store
        return { request, _ in
            do throws(StubProblem) {
                let body = try StubAdmin.parse(request.body).get()
                try store.updateGlobalSettings { (settings: inout StubGlobalSettings) throws(StubProblem) in
                    settings = try settings.mergingExtended(body)
                }
                return StubAdmin.emptyOK
            } catch {
                return error.response
            }
        }
    }
}

extension StubAdmin {
    /// `GET /__admin/docs`: WireMock's index page, linking this server's OpenAPI document.
    package static var docsIndexHandler: HTTPHandler {
        { _, _ in
            let page = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="UTF-8"><title>mock-server: API documents</title></head>
            <body><a href="/__admin/docs/swagger">OpenAPI document</a> (also at /__mock/openapi.json)<br>
            <a href="/__mock/">Console</a></body></html>
            """
            var response = HTTPResponse(status: .ok, body: Array(page.utf8))
            response.headers.set("Content-Type", "text/html; charset=utf-8")
            return response
        }
    }

    /// `GET /__admin/swagger-ui/`: WireMock serves Swagger UI here; this server bundles no
    /// JavaScript, so the page says so and links the document.
    package static var swaggerUIHandler: HTTPHandler {
        { _, _ in
            let page = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="UTF-8"><title>mock-server: API document</title></head>
            <body><p>Swagger UI is not bundled with mock-server. The OpenAPI 3.1 document is at
            <a href="/__admin/docs/swagger">/__admin/docs/swagger</a> (also at /__mock/openapi.json);
            open it in any OpenAPI viewer.</p><a href="/__mock/">Console</a></body></html>
            """
            var response = HTTPResponse(status: .ok, body: Array(page.utf8))
            response.headers.set("Content-Type", "text/html; charset=utf-8")
            return response
        }
    }

    /// `GET /__admin/`: WireMock's older listing of every mapping (its `RootTask`); `GET /__admin`
    /// (same route here: a trailing slash is optional) is redirected to it, as WireMock does.
    package var adminRootHandler: HTTPHandler {
        let list = listMappingsHandler
        return { request, context in
            guard request.path.hasSuffix("/") else {
                // A bad limit or offset is refused here as there, not sent on.
                let listed = list(request, &context)
                if listed.status.code >= 400 { return listed }
                var response = HTTPResponse(status: HTTPStatus(code: 302, reasonPhrase: "Found"))
                response.headers.set("Location", "/__admin/" + (request.query.isEmpty ? "" : "?" + request.query))
                return response
            }
            return list(request, &context)
        }
    }
}
