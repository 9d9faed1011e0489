import HTTPServer

/// WireMock's near misses: for a request that nothing answered, the mappings closest to matching
/// it; for a request pattern, the journaled requests closest to it. The three closest, nearest
/// first, each with `matchResult.distance` (this server's measure: `RequestPattern.distance`).
extension StubAdmin {
    /// How many near misses WireMock gives for one request or pattern.
    static let nearMissCount = 3

    /// `GET /__admin/requests/unmatched/near-misses`.
    package var unmatchedNearMissesHandler: HTTPHandler {
        let admin = self
        return { _, _ in
            let unmatched = admin.journal.loggedRequests().filter { !$0.wasMatched }
            var budget = StubEditDistance.cellsPerCall
            let misses = unmatched.flatMap { logged in
                admin.nearestMappings(to: logged.request, budget: &budget).map { admin.nearMiss(logged.requestJSON(host: logged.request.headers["Host"]), $0) }
            }
            return StubAdmin.json(.ok, ["nearMisses": .array(misses)])
        }
    }

    /// `POST /__admin/near-misses/request`: a logged request (`url`, `method`, `headers`, `body`).
    package var requestNearMissesHandler: HTTPHandler {
        let admin = self
        return { request, _ in
            do throws(StubProblem) {
                let value = try StubAdmin.parse(request.body).get()
                let asked = try StubAdmin.loggedRequest(value)
                var budget = StubEditDistance.cellsPerCall
                let misses = admin.nearestMappings(to: asked, budget: &budget).map { admin.nearMiss(value, $0) }
                return StubAdmin.json(.ok, ["nearMisses": .array(misses)])
            } catch {
                return error.response
            }
        }
    }

    /// `POST /__admin/near-misses/request-pattern`: a request pattern, against the journal.
    package var patternNearMissesHandler: HTTPHandler {
        let admin = self
        return { request, _ in
            do throws(StubProblem) {
                let value = try StubAdmin.parse(request.body).get()
                let pattern = try RequestPattern.decode(value, at: "")
                var budget = StubEditDistance.cellsPerCall
                let ranked = admin.journal.loggedRequests()
                    .map { (logged: $0, distance: pattern.distance($0.request, now: store.now(), budget: &budget)) }
                    .sorted { $0.distance < $1.distance }
                    .prefix(StubAdmin.nearMissCount)
                let misses: [JSONValue] = ranked.map { item in
                    ["request": item.logged.requestJSON(host: item.logged.request.headers["Host"]), "requestPattern": value,
                     "matchResult": ["distance": .number(item.distance)]]
                }
                return StubAdmin.json(.ok, ["nearMisses": .array(misses)])
            } catch {
                return error.response
            }
        }
    }

    /// The mappings closest to matching `request`, nearest first (ties: the order they are listed in).
    private func nearestMappings(to request: StubRequest, budget: inout Int) -> [(mapping: StubMapping, distance: Double)] {
        let ranked = store.mappings.map { (mapping: $0, distance: $0.request.distance(request, now: store.now(), budget: &budget)) }
        return Array(ranked.enumerated().sorted { ($0.element.distance, $0.offset) < ($1.element.distance, $1.offset) }
            .prefix(StubAdmin.nearMissCount).map(\.element))
    }

    private func nearMiss(_ request: JSONValue, _ found: (mapping: StubMapping, distance: Double)) -> JSONValue {
        var miss: JSONValue = ["request": request, "stubMapping": found.mapping.json, "matchResult": ["distance": .number(found.distance)]]
        if let scenario = found.mapping.scenarioName, let state = store.scenarios.first(where: { $0.name == scenario })?.state {
            miss = miss.stubSetting("scenarioState", .string(state))
        }
        return miss
    }

    /// A LoggedRequest's JSON as a request to match: `url` and `method` required, `headers` (a
    /// value or a list of values per name) and `body` optional.
    private static func loggedRequest(_ value: JSONValue) throws(StubProblem) -> StubRequest {
        guard value.isObject else { throw StubProblem("/", "the body must be a logged request object {\"url\", \"method\", \"headers\"?, \"body\"?}") }
        guard let url = value["url"]?.string else { throw StubProblem("/url", "\"url\" is required") }
        guard let method = value["method"]?.string else { throw StubProblem("/method", "\"method\" is required") }
        var headers = HTTPHeaders()
        if case .object(let members)? = value["headers"] {
            for member in members {
                switch member.value {
                case .string(let text): headers.add(member.key, text)
                case .array(let items): for item in items { if let text = item.string { headers.add(member.key, text) } }
                default: throw StubProblem("/headers/" + member.key, "a header is a string or a list of strings")
                }
            }
        }
        return StubRequest(method: method, url: url, headers: headers, body: Array((value["body"]?.string ?? "").utf8))
    }
}
