import HTTPServer

/// WireMock's recorder API: `POST /__admin/recordings/start`, `/stop`, `/snapshot` and
/// `GET /__admin/recordings/status`, with its answers.
extension StubAdmin {
    /// `POST /__admin/recordings/start`.
    package var startRecordingHandler: HTTPHandler {
        let admin = self
        return { request, _ in
            let spec: RecordSpec
            do throws(StubProblem) {
                spec = try RecordSpec.decode(try StubAdmin.parse(request.body).get(), requireTarget: true)
            } catch {
                return error.response
            }
            // A second start while recording keeps the running one, as WireMock does.
            _ = admin.store.recorder.start(spec)
            return StubAdmin.emptyOK
        }
    }

    /// `POST /__admin/recordings/stop`: the recording's mappings.
    package var stopRecordingHandler: HTTPHandler {
        let admin = self
        return { _, _ in
            guard let (spec, exchanges) = admin.store.recorder.stop() else {
                let body: JSONValue = ["errors": [["code": 30, "title": "Not currently recording."]]]
                return HTTPResponse.json(.badRequest, bytes: Array(body.jsonText.utf8)).hinted("not recording: POST /__admin/recordings/start first")
            }
            return admin.recorded(exchanges, spec: spec)
        }
    }

    /// `POST /__admin/recordings/snapshot`: mappings from every proxied exchange still kept.
    package var snapshotHandler: HTTPHandler {
        let admin = self
        return { request, _ in
            let spec: RecordSpec
            do throws(StubProblem) {
                // An empty body is every default, as WireMock takes it.
                let value = request.body.isEmpty ? JSONValue.object([]) : try StubAdmin.parse(request.body).get()
                spec = try RecordSpec.decode(value, requireTarget: false)
            } catch {
                return error.response
            }
            return admin.recorded(admin.store.recorder.proxied, spec: spec)
        }
    }

    /// `GET /__admin/recordings/status`.
    package var recordingStatusHandler: HTTPHandler {
        let admin = self
        return { _, _ in StubAdmin.json(.ok, ["status": .string(admin.store.recorder.status.rawValue)]) }
    }

    func recorded(_ exchanges: [RecordedExchange], spec: RecordSpec) -> HTTPResponse {
        do throws(StubChangeError) {
            let mappings = try store.record(exchanges, spec: spec)
            if spec.idsOnly { return StubAdmin.json(.ok, ["ids": .array(mappings.map { .string($0.id) })]) }
            return StubAdmin.json(.ok, ["mappings": .array(mappings.map(\.json))])
        } catch {
            return error.response
        }
    }
}
