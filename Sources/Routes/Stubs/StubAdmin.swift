#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPServer
import MockAdminWire
import EmulationKit

/// WireMock's admin API under `/__admin/`, with its paths and answer shapes: mappings,
/// requests (read from the mock's journal), scenarios and reset, behind the same admin guard as
/// `/__mock/`.
package struct StubAdmin: Sendable {
    package let store: StubStore
    package let journal: any StubJournal

    package init(store: StubStore, journal: any StubJournal) {
        self.store = store
        self.journal = journal
    }

    /// Every path this adds (for the route table and the OpenAPI document).
    package static let prefix = "/__admin"

    // The handlers of WireMock's admin API and of `GET /__mock/stubs` (their routes and documentation:
    // the admin table, `MockAdmin.routes`; the admin group's guard covers them).

    /// `GET /__admin/mappings`.
    package var listMappingsHandler: HTTPHandler {
        let admin = self
        return { request, _ in admin.listMappings(request) }
    }

    /// `POST /__admin/mappings`.
    package var createHandler: HTTPHandler {
        let admin = self
        return { request, _ in admin.create(request) }
    }

    /// `DELETE /__admin/mappings`.
    package var removeMappingsHandler: HTTPHandler {
        let admin = self
        return { _, _ in
            admin.store.removeAll(keepFiles: false)
            return StubAdmin.emptyOK
        }
    }

    /// `POST /__admin/mappings/reset`.
    package var resetMappingsHandler: HTTPHandler {
        let admin = self
        return { _, _ in admin.resetMappings() }
    }

    /// `POST /__admin/mappings/import`.
    package var importHandler: HTTPHandler {
        let admin = self
        return { request, _ in admin.importMappings(request) }
    }

    /// `GET /__admin/mappings/refused`: the mappings the `--mappings` folder's last load refused
    /// (start, reset, `--watch` reload), each with its file, JSON pointer and reason, and the warnings.
    package var refusedHandler: HTTPHandler {
        let admin = self
        return { _, _ in
            let report = admin.store.loadRecord.current
            return StubAdmin.json(.ok, ["refused": .array(report.refused.map(\.json)), "warnings": .array(report.warnings.map(JSONValue.string)),
                                        "meta": ["total": .number(Double(report.refused.count))]])
        }
    }

    /// `GET /__admin/mappings/:id`.
    package var mappingHandler: HTTPHandler {
        let admin = self
        return { request, context in
            guard let mapping = admin.store.mapping(id: context.pathParameters["id"] ?? "") else { return StubAdmin.notFound }
            return StubAdmin.json(.ok, mapping.json)
        }
    }

    /// `PUT /__admin/mappings/:id`.
    package var editHandler: HTTPHandler {
        let admin = self
        return { request, context in admin.edit(request, context) }
    }

    /// `DELETE /__admin/mappings/:id`.
    package var removeMappingHandler: HTTPHandler {
        let admin = self
        return { request, context in
            do throws(StubChangeError) {
                return try admin.store.removeSaving(id: context.pathParameters["id"] ?? "") ? StubAdmin.emptyOK : StubAdmin.notFound
            } catch {
                return error.response
            }
        }
    }

    /// `POST /__admin/mappings/save`.
    package var saveMappingsHandler: HTTPHandler {
        let admin = self
        return { _, _ in
            do throws(StubChangeError) {
                _ = try admin.store.saveAll()
                return StubAdmin.emptyOK
            } catch {
                return error.response
            }
        }
    }

    /// `GET /__admin/requests`.
    package var listRequestsHandler: HTTPHandler {
        let admin = self
        return { request, _ in admin.listRequests(request) }
    }

    /// `DELETE /__admin/requests`.
    package var clearRequestsHandler: HTTPHandler {
        let admin = self
        return { _, _ in
            admin.journal.clearRequests()
            return StubAdmin.emptyOK
        }
    }

    /// `POST /__admin/requests/reset`.
    package var resetRequestsHandler: HTTPHandler {
        let admin = self
        return { _, _ in
            admin.journal.clearRequests()
            return StubAdmin.emptyOK
        }
    }

    /// `POST /__admin/requests/count`.
    package var countRequestsHandler: HTTPHandler {
        let admin = self
        return { request, _ in
            admin.matching(request).map { StubAdmin.json(.ok, ["count": .number(Double($0.count)), "requestJournalDisabled": .bool(admin.journal.isJournalDisabled)]) }
        }
    }

    /// `POST /__admin/requests/find`.
    package var findRequestsHandler: HTTPHandler {
        let admin = self
        return { request, _ in
            admin.matching(request).map { found in
                StubAdmin.json(.ok, ["requests": .array(found.map { $0.requestJSON(host: $0.request.headers["Host"]) }), "requestJournalDisabled": .bool(admin.journal.isJournalDisabled)])
            }
        }
    }

    /// `GET /__admin/requests/unmatched`.
    package var unmatchedHandler: HTTPHandler {
        let admin = self
        return { _, _ in
            let found = admin.journal.loggedRequests().filter { !$0.wasMatched }
            return StubAdmin.json(.ok, ["requests": .array(found.map { $0.requestJSON(host: $0.request.headers["Host"]) }), "requestJournalDisabled": .bool(admin.journal.isJournalDisabled)])
        }
    }

    /// `GET /__admin/scenarios`.
    package var scenariosHandler: HTTPHandler {
        let admin = self
        return { _, _ in
            StubAdmin.json(.ok, ["scenarios": .array(admin.store.scenarios.map { s in
                var scenario = (try? JSONValue(encoding: MockStubScenario(name: s.name, state: s.state, possibleStates: s.possibleStates))) ?? [:]
                scenario.set("mappings", .array(s.mappings.map(\.json)))
                return scenario
            })])
        }
    }

    /// `POST /__admin/scenarios/reset`.
    package var resetScenariosHandler: HTTPHandler {
        let admin = self
        return { _, _ in
            admin.store.resetScenarios()
            return StubAdmin.emptyOK
        }
    }

    /// `POST /__admin/reset`.
    package var resetHandler: HTTPHandler {
        let admin = self
        return { _, _ in
            admin.journal.clearRequests()
            return admin.resetMappings()
        }
    }

    /// `GET /__mock/stubs`, the console's Stubs panel: each mapping with its hits and its scenario's state.
    package var summariesHandler: HTTPHandler {
        let admin = self
        return { _, _ in StubAdmin.json(.ok, .array(admin.store.summaries)) }
    }

    static var emptyOK: HTTPResponse { .json(.ok, bytes: Array("{}".utf8)) }

    static var notFound: HTTPResponse {
        HTTPResponse.json(.notFound, bytes: Array("{}".utf8)).hinted("no stub mapping has that id (GET /__admin/mappings lists them)")
    }

    static func json(_ status: HTTPStatus, _ value: JSONValue) -> HTTPResponse {
        .json(status, bytes: Array(value.jsonText.utf8))
    }

    /// The body as JSON, or the 422 saying where it breaks.
    static func parse(_ body: [UInt8]) -> Result<JSONValue, StubProblem> {
        if let value = JSONValue.parse(body) { return .success(value) }
        let offset = JSONValue.syntaxErrorOffset(body) ?? 0
        let (line, column) = StubFiles.lineColumn(body, offset)
        var problem = StubProblem("/", "the body is not JSON: syntax error at line \(line), column \(column): \(JSONSyntaxHint.expected(body, at: offset))")
        // WireMock's parser names no place for a syntax error; its words where they are known.
        problem.wireMockPointer = ""
        problem.wireMockDetail = JacksonSyntaxError.message(for: String(decoding: body, as: UTF8.self))
        return .failure(problem)
    }

    private func listMappings(_ request: HTTPRequest) -> HTTPResponse {
        let all = store.mappings
        switch StubAdminQuery.page(all, request.queryParameters, allowed: ["limit", "offset"]) {
        case .failure(let problem): return StubAdminQuery.badRequest(problem)
        case .success(let page):
            return StubAdmin.json(.ok, ["mappings": .array(page.map(\.json)), "meta": ["total": .number(Double(all.count))]])
        }
    }

    private func create(_ request: HTTPRequest) -> HTTPResponse {
        do throws(StubChangeError) {
            let mapping = try StubAdmin.checked { () throws(StubProblem) -> StubMapping in
                let value = try StubAdmin.parse(request.body).get()
                guard value.isObject, value["mappings"] == nil else {
                    throw StubProblem("/", "POST /__admin/mappings takes one mapping object; POST /__admin/mappings/import takes {\"mappings\": [...]}")
                }
                var generator = SystemRandomNumberGenerator()
                return try StubMapping.decode(value, filesRoot: store.filesRoot, newId: UUIDText.random(using: &generator), templateAll: store.templateAll)
            }
            let hint = try store.addSaving([mapping])
            let created = StubAdmin.json(.created, mapping.json)
            return hint.map(created.hinted) ?? created
        } catch {
            return error.response
        }
    }

    /// Reading a change's mappings: a problem with them refuses the change.
    private static func checked<R>(_ body: () throws(StubProblem) -> R) throws(StubChangeError) -> R {
        do { return try body() } catch { throw .refused(error) }
    }

    private func edit(_ request: HTTPRequest, _ context: RequestContext) -> HTTPResponse {
        let id = (context.pathParameters["id"] ?? "").lowercased()
        guard store.mapping(id: id) != nil else { return StubAdmin.notFound }
        do throws(StubChangeError) {
            let mapping = try StubAdmin.checked { () throws(StubProblem) -> StubMapping in
                let value = try StubAdmin.parse(request.body).get()
                // The path names the mapping; an id in the body must still be one (a UUID string).
                let given = try StrictObject(value, at: "", what: "a mapping")
                for key in ["id", "uuid"] {
                    if let text = try given.string(key), !UUIDText.isValid(text) {
                        throw StubProblem("/" + key, "\"\(key)\" must be a UUID such as 8c5db8b0-2db4-4ad7-a99f-38c9b00da3f7 (or left out: the path names the mapping)")
                    }
                }
                return try StubMapping.decode(value.stubSetting("id", .string(id)).stubSetting("uuid", .string(id)),
                                              filesRoot: store.filesRoot, newId: id, templateAll: store.templateAll)
            }
            let (found, hint) = try store.replaceSaving(id: id, with: mapping)
            guard found else { return StubAdmin.notFound }
            let edited = StubAdmin.json(.ok, mapping.json)
            return hint.map(edited.hinted) ?? edited
        } catch {
            return error.response
        }
    }

    /// As WireMock 2.35.1 imports (`WireMockApp.importStubs`): the mappings are added last first,
    /// so the first is the newest (listed first, winning ties); an id already loaded is replaced
    /// (`OVERWRITE`, the default) or left as it is (`IGNORE`); then, with `deleteAllNotInImport`,
    /// every mapping whose id the import does not give is removed. All or none: a refused mapping
    /// is a 422 and nothing changes.
    private func importMappings(_ request: HTTPRequest) -> HTTPResponse {
        do throws(StubChangeError) {
            let (mappings, givenIds, deleteOthers) = try StubAdmin.checked { () throws(StubProblem) -> ([StubMapping], Set<String>, Bool) in
                let value = try StubAdmin.parse(request.body).get()
                var replace = true, deleteOthers = false
                if let options = value["importOptions"] {
                    let o = try StrictObject(options, at: "/importOptions", what: "\"importOptions\"")
                    try o.allow(["duplicatePolicy", "deleteAllNotInImport"])
                    switch try o.string("duplicatePolicy") {
                    case nil, "OVERWRITE"?: replace = true
                    case "IGNORE"?: replace = false
                    default: throw StubProblem("/importOptions/duplicatePolicy", "duplicatePolicy must be OVERWRITE or IGNORE")
                    }
                    deleteOthers = try o.bool("deleteAllNotInImport") ?? false
                }
                let existing = Set(store.mappings.map(\.id))
                var generator = SystemRandomNumberGenerator()
                var mappings: [StubMapping] = []
                for (item, pointer) in try StubDocument.mappings(in: value) {
                    mappings.append(try StubMapping.decode(item, at: pointer, filesRoot: store.filesRoot,
                                                           newId: UUIDText.random(using: &generator), templateAll: store.templateAll))
                }
                let given = Set(mappings.map(\.id))
                if !replace { mappings.removeAll { existing.contains($0.id) } }
                return (mappings.reversed(), given, deleteOthers)
            }
            // With deleteAllNotInImport every other mapping goes in the same step, after the
            // import's mappings are decoded and written: a refused import removes nothing.
            let hint = try store.addSaving(mappings, replaceExisting: true, keepOnly: deleteOthers ? givenIds : nil)
            return hint.map(StubAdmin.emptyOK.hinted) ?? StubAdmin.emptyOK
        } catch {
            return error.response
        }
    }

    private func resetMappings() -> HTTPResponse {
        // One step: a folder that no longer loads leaves the stubs as they were.
        do throws(StubFiles.LoadError) {
            try store.resetToFolder()
            return StubAdmin.emptyOK
        } catch {
            return StubProblem("/", error.description).response
        }
    }

    /// Newest first; `unmatched=true` and `matchingStub=ID` choose which (and `meta.total` counts
    /// those), then `since` and `limit` page them, as WireMock's `GetAllRequestsTask`.
    private func listRequests(_ request: HTTPRequest) -> HTTPResponse {
        let parameters = request.queryParameters
        var all = Array(journal.loggedRequests().reversed())
        if parameters.first("unmatched") == "true" { all = all.filter { !$0.wasMatched } }
        if let stub = parameters.first("matchingStub")?.lowercased() {
            guard UUIDText.isValid(stub) else {
                return StubAdmin.json(.badRequest, ["errors": [["code": 10, "title": .string("Query parameter matchingStub value '\(stub)' is not a valid UUID")]]])
                    .hinted(StubProblem.ascii("matchingStub must be a stub mapping's id (a UUID), not '\(stub)'"))
            }
            all = all.filter { $0.stub?.id == stub }
        }
        let since: Date?
        switch StubAdminQuery.since(parameters) {
        case .failure(let problem): return StubAdminQuery.badRequest(problem, title: "\(parameters.first("since") ?? "") is not a valid ISO8601 date")
        case .success(let date): since = date
        }
        let chosen = since.map { date in all.filter { $0.at > date } } ?? all
        switch StubAdminQuery.page(chosen, parameters, allowed: ["limit", "since", "unmatched", "matchingStub"]) {
        case .failure(let problem): return StubAdminQuery.badRequest(problem)
        case .success(let page):
            let byId = Dictionary(store.mappings.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
            let events = page.map { $0.serveEventJSON(mapping: $0.stub.flatMap { byId[$0.id] }) }
            return StubAdmin.json(.ok, ["requests": .array(events), "meta": ["total": .number(Double(all.count))], "requestJournalDisabled": .bool(journal.isJournalDisabled)])
        }
    }

    /// The journaled requests a WireMock request pattern (the body) matches.
    func matching(_ request: HTTPRequest) -> Result<[StubLoggedRequest], StubProblem> {
        let pattern: RequestPattern
        do throws(StubProblem) {
            pattern = try RequestPattern.decode(try StubAdmin.parse(request.body).get(), at: "")
        } catch {
            return .failure(error)
        }
        let now = store.now()
        return .success(journal.loggedRequests().filter { pattern.matches($0.request, now: now) })
    }
}

extension Result where Success == [StubLoggedRequest], Failure == StubProblem {
    fileprivate func map(_ body: ([StubLoggedRequest]) -> HTTPResponse) -> HTTPResponse {
        switch self {
        case .success(let found): return body(found)
        case .failure(let problem): return problem.response
        }
    }
}
