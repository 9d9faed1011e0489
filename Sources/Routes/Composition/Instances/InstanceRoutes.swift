#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import EmulationKit
import HTTPServer
import MockControl

extension MockAdmin {
    /// The 503 of a server that makes no instances.
    static var noInstances: HTTPResponse {
        HTTPResponse.json(.serviceUnavailable, ["error": "this server makes no instances"] as JSONValue)
            .hinted("Instances are made by the main mock-server (not by an instance or an embedding that did not enable them).")
    }

    /// `POST /__mock/instances`: an isolated mock on a new port.
    var startInstanceHandler: HTTPHandler {
        let slot = instances
        let notHere = MockAdmin.noInstances
        return { [control] request, _ in
            guard let instances = slot.instances else { return notHere }
            var seed: Seed?, settings: [String: SettingValue] = [:]
            // Any system's setting, by its seed key (`smsCode`): no system is named here.
            let known = SystemRegistry.catalog.settings
            let fields = (["seed"] + known.map(\.key)).joined(separator: ", ")
            if !request.body.isEmpty {
                guard case .object(let members)? = JSONValue.parse(request.body) else {
                    return ControlPlane.badRequest("the body must be a JSON object {\"seed\"?: {…seed.json's format…}, \"smsCode\"?: \"digits\", …any seed setting}")
                }
                for (key, value) in members {
                    if value == .null { continue }
                    if key == "seed" {
                        guard case .object = value else { return ControlPlane.badRequest("\"seed\" must be an object in seed.json's format") }
                        do { seed = try Seed.decode(Data(value.jsonText.utf8), source: "seed") } catch {
                            return ControlPlane.badRequest("\(error)", hint: (error as? SeedError)?.hint)
                        }
                        continue
                    }
                    guard let setting = known.first(where: { $0.key == key }) else {
                        return ControlPlane.badRequest("unknown field \"\(key)\" (fields: \(fields))")
                    }
                    switch (setting.kind, value) {
                    case (.digits, .string(let text)):
                        guard let parsed = try? setting.parse(text) else { return ControlPlane.badRequest("\"\(key)\" must be 1 to 9 digits") }
                        settings[key] = parsed
                    case (.digits, _): return ControlPlane.badRequest("\"\(key)\" must be a string of 1 to 9 digits")
                    case (.count(let range, _), .number(let number)):
                        guard let whole = Int(exactly: number), range.contains(whole) else {
                            return ControlPlane.badRequest("\"\(key)\" must be a whole number in \(range.lowerBound)...\(range.upperBound)")
                        }
                        settings[key] = .number(whole)
                    case (.count(let range, _), _):
                        return ControlPlane.badRequest("\"\(key)\" must be a whole number in \(range.lowerBound)...\(range.upperBound)")
                    }
                }
            }
            do throws(MockInstances.Problem) {
                let json = MockInstances.json(try instances.create(seed: seed, settings: settings))
                control.publish(.instanceStarted) { json }
                return .json(.created, json)
            } catch {
                switch error {
                case .invalid(let text): return ControlPlane.badRequest(text)
                case .unavailable(let text, let hint):
                    return HTTPResponse.json(.serviceUnavailable, ["error": .string(text)] as JSONValue).hinted(hint)
                }
            }
        }
    }

    /// `GET /__mock/instances`: the running instances.
    var instancesHandler: HTTPHandler {
        let slot = instances
        return { _, _ in
            .json(.ok, JSONValue.array((slot.instances?.instances ?? []).map(MockInstances.json)))
        }
    }

    /// `DELETE /__mock/instances/:id`: the instance stopped.
    var stopInstanceHandler: HTTPHandler {
        let slot = instances
        return { [control] request, context in
            let id = context.pathParameters["id"] ?? ""
            guard let instances = slot.instances, instances.stop(id: id) else {
                return .json(.notFound, ["error": .string("no instance with id \(id)")] as JSONValue)
            }
            control.publish(.instanceStopped) { ["id": .string(id)] }
            return .empty(.noContent)
        }
    }
}
