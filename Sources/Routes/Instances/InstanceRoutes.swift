#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPServer

extension MockAdmin {
    /// `POST`/`GET /__mock/instances` and `DELETE /__mock/instances/<id>`.
    func registerInstances(in router: inout Router) {
        let slot = instances
        let notHere = HTTPResponse.json(.serviceUnavailable, ["error": "this server makes no instances"] as JSONValue)
            .hinted("Instances are made by the main mock-server (not by an instance or an embedding that did not enable them).")
        router.post("/__mock/instances", `guard`.wrap { [control] request in
            guard let instances = slot.instances else { return notHere }
            var seed: Seed?, smsCode: String?
            if !request.body.isEmpty {
                guard case .object(let members)? = JSONValue.parse(request.body) else {
                    return ControlPlane.badRequest("the body must be a JSON object {\"seed\"?: {…seed.json's format…}, \"smsCode\"?: \"digits\"}")
                }
                for (key, value) in members {
                    switch (key, value) {
                    case ("seed", .null), ("smsCode", .null): continue
                    case ("seed", .object):
                        do { seed = try Seed.decode(Data(value.jsonText.utf8), source: "seed") } catch {
                            return ControlPlane.badRequest("\(error)", hint: (error as? SeedError)?.hint)
                        }
                    case ("smsCode", .string(let code)):
                        guard let setting = SystemRegistry.settings.first(where: { $0.key == "smsCode" }),
                              let parsed = try? setting.parse(code).text else {
                            return ControlPlane.badRequest("\"smsCode\" must be 1 to 9 digits")
                        }
                        smsCode = parsed
                    case ("seed", _): return ControlPlane.badRequest("\"seed\" must be an object in seed.json's format")
                    case ("smsCode", _): return ControlPlane.badRequest("\"smsCode\" must be a string of 1 to 9 digits")
                    default: return ControlPlane.badRequest("unknown field \"\(key)\" (fields: seed, smsCode)")
                    }
                }
            }
            do throws(MockInstances.Problem) {
                let json = MockInstances.json(try instances.create(seed: seed, smsCode: smsCode))
                control.publish(.instanceStarted) { json }
                return .json(.created, json)
            } catch {
                switch error {
                case .invalid(let text): return ControlPlane.badRequest(text)
                case .unavailable(let text, let hint):
                    return HTTPResponse.json(.serviceUnavailable, ["error": .string(text)] as JSONValue).hinted(hint)
                }
            }
        })
        router.get("/__mock/instances", `guard`.wrap { _ in
            .json(.ok, JSONValue.array((slot.instances?.instances ?? []).map(MockInstances.json)))
        })
        router.delete("/__mock/instances/:id", `guard`.wrap { [control] request in
            let id = request.pathParameters["id"] ?? ""
            guard let instances = slot.instances, instances.stop(id: id) else {
                return .json(.notFound, ["error": .string("no instance with id \(id)")] as JSONValue)
            }
            control.publish(.instanceStopped) { ["id": .string(id)] }
            return .empty(.noContent)
        })
    }
}
