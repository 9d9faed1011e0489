#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPServer

extension StubStore {
    /// Schedules the mapping's webhooks on this loop's outbound client, each after the answer
    /// (its delay included) and its own delay; the answer never waits for them. What they get
    /// back, or why they failed, is logged.
    static func fireWebhooks(of mapping: StubMapping, for request: StubRequest, now: Date, limits: StubLimits, after answerDelay: UInt64) {
        // Off an event loop (an in-process call) there is no client to send them with.
        guard let client = OutboundClient.current else { return }
        let label = mapping.name ?? mapping.id
        for (i, hook) in mapping.webhooks.enumerated() {
            switch hook.outbound(for: request, now: now, limits: limits) {
            case .failure(let problem):
                client.logger.warning("stub \(label): webhook \(i) not sent: \(problem.pointer) \(problem.detail)")
            case .success(let outbound):
                let what = "stub \(label): webhook \(outbound.method) \(outbound.upstream)\(outbound.target)"
                client.send(outbound, after: answerDelay &+ hook.delayNanos()) { [logger = client.logger] result in
                    switch result {
                    case .success(let answer): logger.info("\(what) answered \(answer.status)")
                    case .failure(let failure): logger.warning("\(what) failed: \(failure.detail)")
                    }
                }
            }
        }
    }
}
