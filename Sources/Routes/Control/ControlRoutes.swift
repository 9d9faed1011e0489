#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Dispatch
import HTTPServer
import EmulationKit

extension ControlPlane {
    // The handlers of `/__mock/requests`, `/__mock/faults`, `/__mock/clock` and `/__mock/tokens/*`
    // (their routes and documentation: the admin table, `MockAdmin.routes`; the admin group's guard covers them).

    /// `GET /__mock/requests`: the journal; with `waitMs`, answered once a matching entry exists, or at
    /// the deadline with what there is.
    package var requestsHandler: HTTPHandler {
        journalHandler { journal, entries in .json(sorted: .array(entries.map { journal.shown($0) })) }
    }

    /// The journal's matching entries (the filters of `GET /__mock/requests`, `waitMs` included),
    /// answered as `answer` makes them.
    func journalHandler(_ answer: @escaping @Sendable (RequestJournal, [JournalEntry]) -> HTTPResponse) -> HTTPHandler {
        { [self] request, context in
            switch (filter(request.queryParameters), waiters.waitMs(request.queryParameters)) {
            case (.failure(let problem), _), (_, .failure(let problem)): return ControlPlane.badRequest(problem.description, hint: problem.hint)
            case (.success(let filter), .success(let ms)):
                let journal = journal
                if ms == 0 {
                    // Built off the loop (the deferred answer keeps its place): a large journal's JSON
                    // took a second, and the loop's other connections waited that long.
                    let promise = DeferredResponse(timeoutNanos: 60_000_000_000)
                    let hold = journalBuildHold.withLock { $0 }
                    DispatchQueue.global().async {
                        if let hold { hold.reached.signal(); hold.release.wait() }
                        promise.complete(answer(journal, journal.entries(filter)))
                    }
                    return context.deferring(.empty(.ok), until: promise)
                }
                return waiters.wait(ms: ms, in: &context, ready: {
                    let entries = journal.entries(filter)
                    return entries.isEmpty ? nil : answer(journal, entries)
                }, timeout: { answer(journal, journal.entries(filter)) })
            }
        }
    }

    /// `GET /__mock/requests/count`; with `waitMs`, once `atLeast` entries match (default 1), or at the deadline.
    package var requestCountHandler: HTTPHandler {
        { [self] request, context in
            switch (filter(request.queryParameters, counting: true), waiters.waitMs(request.queryParameters)) {
            case (.failure(let problem), _), (_, .failure(let problem)): return ControlPlane.badRequest(problem.description, hint: problem.hint)
            case (.success(let filter), .success(let ms)):
                let journal = journal, atLeast = filter.atLeast ?? 1
                return waiters.wait(ms: ms, in: &context, ready: {
                    let count = journal.count(filter)
                    return count >= atLeast ? .json(sorted: ["count": JSONValue(count)]) : nil
                }, timeout: { .json(sorted: ["count": JSONValue(journal.count(filter))]) })
            }
        }
    }

    /// `DELETE /__mock/requests`.
    package var clearRequestsHandler: HTTPHandler {
        { [self] _, _ in
            journal.clear()
            stubs.clearRecordedExchanges()
            publish(.journalCleared)
            return .empty(.noContent)
        }
    }

    /// `GET /__mock/faults`.
    package var faultsHandler: HTTPHandler {
        { [self] _, _ in .json(sorted: .array(faults.rules.map(\.json))) }
    }

    /// `POST /__mock/faults`.
    package var addFaultHandler: HTTPHandler {
        { [self] request, _ in
            do {
                let draft = try FaultRuleDraft.parse(request.body, systems: catalog)
                try draft.checkItCanFire(systems: catalog) { [owners] path in owners.name(ofPath: path) }
                guard let rule = faults.add(draft) else {
                    return ControlPlane.badRequest("at most \(FaultStore.maxRules) fault rules at a time: remove some (DELETE /__mock/faults/ID, or DELETE /__mock/faults for all)")
                }
                logger.info("fault \(rule.id) added: \(rule.method ?? "any") \(rule.path.text)\(rule.system.map { " [\($0)]" } ?? "") → \(rule.action.logText)")
                publish(.faultAdded) { rule.json }
                return .json(.created, sorted: rule.json)
            } catch {
                return ControlPlane.badRequest("\(error)")
            }
        }
    }

    /// `DELETE /__mock/faults`.
    package var removeFaultsHandler: HTTPHandler {
        { [self] _, _ in
            let ids = faults.rules.map(\.id)
            faults.removeAll()
            if !ids.isEmpty { publish(.faultRemoved) { ["ids": .array(ids.map { JSONValue($0) })] } }
            return .empty(.noContent)
        }
    }

    /// `DELETE /__mock/faults/:id`.
    package var removeFaultHandler: HTTPHandler {
        { [self] request, context in
            guard let id = Int(context.pathParameters["id"] ?? ""), faults.remove(id: id) else {
                return .json(.notFound, sorted: ["error": .string("no fault rule with id \(context.pathParameters["id"] ?? "")")])
            }
            publish(.faultRemoved) { ["ids": [JSONValue(id)]] }
            return .empty(.noContent)
        }
    }

    /// `GET /__mock/clock`.
    package var clockHandler: HTTPHandler {
        { [self] _, _ in .json(sorted: clockJSON) }
    }

    /// `POST /__mock/clock`.
    package var advanceClockHandler: HTTPHandler {
        { [self] request, _ in
            guard let body = JSONValue.parse(request.body)?.members, case .number(let seconds)? = body["advanceSeconds"],
                  seconds.isFinite, seconds > 0, seconds <= 3_153_600_000 else {
                return ControlPlane.badRequest("the body must be {\"advanceSeconds\": n} with n a number of seconds above 0 (fractions allowed, at most 100 years)")
                    .hinted("Send Content-Type: application/json and a body like {\"advanceSeconds\": 3600}; the clock only moves forward (DELETE /__mock/clock puts it back).")
            }
            guard advanceClock(by: seconds) else {
                return ControlPlane.badRequest("the mock's clock runs at most 100 years ahead in all (it is \(Int(clock.offsetSeconds)) s ahead now); DELETE /__mock/clock puts it back to real time")
                    .hinted("DELETE /__mock/clock puts the clock back to real time; then advance it again.")
            }
            return .json(sorted: clockJSON)
        }
    }

    /// `DELETE /__mock/clock`.
    package var resetClockHandler: HTTPHandler {
        { [self] _, _ in
            resetClock()
            return .json(sorted: clockJSON)
        }
    }

    /// `POST /__mock/tokens/expire` (`revoke` false) and `/__mock/tokens/revoke`.
    package func tokensHandler(revoke: Bool) -> HTTPHandler {
        { [self] request, _ in
            var system: String?, token: String?
            if !request.body.isEmpty {
                guard let body = JSONValue.parse(request.body)?.members else {
                    return ControlPlane.badRequest("the body must be a JSON object {\"system\"?, \"token\"?}")
                }
                if let unknown = body.keys.sorted().first(where: { $0 != "system" && $0 != "token" }) {
                    return ControlPlane.badRequest("unknown field \"\(unknown)\" (fields: system, token)")
                }
                for (key, value) in body where value != .null {
                    guard let text = value.string else { return ControlPlane.badRequest("\"\(key)\" must be a string") }
                    if key == "system" { system = text } else { token = text }
                }
            }
            do {
                return .json(sorted: ["affected": JSONValue(try tokens(revoke: revoke, system: system, token: token))])
            } catch {
                return ControlPlane.badRequest("\(error)")
            }
        }
    }

    package static func badRequest(_ message: String) -> HTTPResponse {
        .json(.badRequest, sorted: ["error": .string(message)])
    }

    /// A 400 with `X-Mock-Hint` when there is a hint.
    package static func badRequest(_ message: String, hint: String?) -> HTTPResponse {
        hint.map { badRequest(message).hinted($0) } ?? badRequest(message)
    }

    package struct FilterProblem: Error, CustomStringConvertible {
        package let description: String
        package var hint: String? = nil
        package init(description: String, hint: String? = nil) {
            self.description = description
            self.hint = hint
        }
    }

    /// The journal filter from `?system=&method=&path=&status=&since=&limit=&body=&hint=` (and, to
    /// count, `atLeast`). A filter given with an empty value or a value of the wrong type is a 400:
    /// it could never match what the test means.
    package func filter(_ query: Parameters, counting: Bool = false) -> Result<RequestJournal.Filter, FilterProblem> {
        var filter = RequestJournal.Filter()
        var names = ["system", "method", "path", "status", "since", "limit", "body", "hint", "waitMs"]
        if counting {
            names.append("atLeast")
            filter.limit = Int.max
        }
        let known = Set(names)
        for item in query {
            guard known.contains(item.name) else {
                return .failure(FilterProblem(description: "unknown filter \"\(item.name)\" (filters: \(names.joined(separator: ", ")))"))
            }
            guard !item.value.isEmpty else {
                return .failure(FilterProblem(description: "filter \"\(item.name)\" is empty; give it a value or leave it out"))
            }
        }
        if let v = query["system"] {
            // `stubs`: the requests a stub mapping answered (their entries' `system`).
            let systems = catalog.names + [StubReference.systemName]
            guard systems.contains(v) else {
                return .failure(FilterProblem(description: "\"system\" must be one of \(systems.joined(separator: ", "))"))
            }
            filter.system = v
        }
        if let v = query["method"] { filter.method = v }
        if let v = query["path"] { filter.path = PathPattern(v) }
        if let v = query["body"] { filter.body = v }
        if let v = query["hint"] {
            guard v == "true" || v == "false" else { return .failure(FilterProblem(description: "\"hint\" must be true or false")) }
            filter.hint = v == "true"
        }
        func int(_ name: String, _ range: ClosedRange<Int>) -> Result<Int?, FilterProblem> {
            guard let v = query[name] else { return .success(nil) }
            guard let n = Int(v), range.contains(n) else {
                return .failure(FilterProblem(description: "\"\(name)\" must be a whole number from \(range.lowerBound) to \(range.upperBound)"))
            }
            return .success(n)
        }
        switch (int("status", 100...599), int("since", 0...Int(Int32.max)), int("limit", 1...100_000), int("atLeast", 0...100_000)) {
        case (.failure(let p), _, _, _), (_, .failure(let p), _, _), (_, _, .failure(let p), _), (_, _, _, .failure(let p)): return .failure(p)
        case (.success(let status), .success(let since), .success(let limit), .success(let atLeast)):
            filter.status = status
            filter.since = since
            if let limit { filter.limit = limit }
            filter.atLeast = atLeast
        }
        return .success(filter)
    }
}
