#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Dispatch
import HTTPServer
import EmulationKit
import MockAdminWire

/// The control plane for tests (docs/control-plane.md): the request journal, faults, the adjustable clock,
/// token controls and the event hub, over the systems of one `MockApp`.
@usableFromInline package final class ControlPlane: Sendable {
    package let journal: RequestJournal
    @usableFromInline package let faults: FaultStore
    package let clock: OffsetClock
    package let events: EventHub
    /// Admin requests waiting for a journal entry or an outbox message (`?waitMs=`).
    package let waiters: Waiters
    package let systems: [any EmulatedSystem]
    /// What fault parsing, journal filters and the documents know of those systems.
    package let catalog: SystemCatalog
    /// What the plane reaches of the stub mappings (the composition root holds the store).
    package let stubs: StubControls
    /// Which system owns a path (the systems' route groups, then the admin group), for what is
    /// settled before any request: fault rules, the stubs' system paths. A
    /// request's owner is the router's, in its context (`RequestContext.owner`).
    package let owners: PathOwners
    package let logger: Logger
    /// For a scripted gateway reply's fresh `sequence_id`.
    package let random: any RandomSource
    /// Test hook: holds the background build of a `GET /__mock/requests` answer (nil: never held).
    package let journalBuildHold = Locked<JournalBuildHold?>(nil)

    /// What an app put in another's place keeps of the old one's control plane (`MockApp.rebuilt`):
    /// the event hub and the waiters always (subscribers and waits follow the swap, and the shared
    /// outbox keeps its one observer), the journal and faults when only the state is replaced.
    package struct Carried: Sendable {
        package let events: EventHub
        package let waiters: Waiters
        package let outbox: Outbox
        package let records: (journal: RequestJournal, faults: FaultStore)?
    }

    /// What an app built in this one's place keeps (`records`: the journal and the faults too).
    package func carried(records: Bool) -> Carried {
        Carried(events: events, waiters: waiters, outbox: outbox, records: records ? (journal, faults) : nil)
    }

    /// The outbox it observes (for `carried`).
    private let outbox: Outbox

    package convenience init(environment: MockEnvironment, systems: [any EmulatedSystem], stubs: StubControls = .none, journalSize: Int = 1000) {
        self.init(environment: environment, systems: systems, stubs: stubs, journalSize: journalSize, carrying: nil)
    }

    package init(environment: MockEnvironment, systems: [any EmulatedSystem], stubs: StubControls, journalSize: Int, carrying: Carried?) {
        events = carrying?.events ?? EventHub()
        let waiters = carrying?.waiters ?? Waiters(maxWaitMs: environment.maxWaitMs)
        self.waiters = waiters
        journal = carrying?.records?.journal ?? RequestJournal(capacity: journalSize, events: events, waiters: waiters,
                                                                          reading: EntryReading(systems: SystemCatalog(of: systems)))
        faults = carrying?.records?.faults ?? FaultStore()
        outbox = environment.outbox
        clock = environment.clock as? OffsetClock ?? OffsetClock(base: environment.clock)
        self.systems = systems
        catalog = SystemCatalog(of: systems)
        self.stubs = stubs
        let owners = PathOwners(groups: systems.map(\.routeGroup) + [AdminGuard.routeGroup(alsoOwning: stubs.adminPrefix)])
        self.owners = owners
        // Stubs on paths no system owns cost the systems' requests nothing.
        stubs.setSystemPaths { [systemCount = systems.count] path in owners.owner(of: path).map { $0 < systemCount } ?? false }
        logger = environment.logger
        random = environment.random
        let events = self.events
        // Stub changes reach the log and the console (the newest app's control plane listens).
        stubs.observeChanges { [logger = environment.logger, clock = environment.clock] summary in
            logger.info(summary())
            events.publish(kind: "stubs", at: clock.now()) { ["change": .string(summary())] }
        }
        // A matcher that gave up on a body (its step budget) says so in the newest app's log.
        stubs.observeWarnings { [logger = environment.logger] warning in logger.warning(warning) }
        // The app it replaces already publishes this outbox's messages to the same hub.
        if let carrying, carrying.outbox === environment.outbox { return }
        environment.outbox.observe { message in
            waiters.poke()
            switch message {
            case .sms(let sms):
                events.publish(kind: "sms", at: environment.clock.now()) { (try? JSONValue(encoding: sms)) ?? .null }
            case .email(let mail):
                events.publish(kind: "email", at: environment.clock.now()) { (try? JSONValue(encoding: mail)) ?? .null }
            }
        }
    }

    /// What `POST /__mock/reset` adds to the systems' reset: an empty journal, no faults, no stub
    /// global settings, real time.
    package func reset() {
        journal.clear()
        stubs.clearRecordedExchanges()
        faults.removeAll()
        // Stubs from --mappings stay; those added over HTTP go (as the test that added them ended).
        stubs.reset()
        clock.reset()
        events.publish(kind: "reset", at: clock.now()) { [:] }
    }

    /// `{"now", "offsetSeconds"}` of the mock's clock.
    var clockJSON: JSONValue {
        (try? JSONValue(encoding: MockClock(now: clock.now(), offsetSeconds: clock.offsetSeconds))) ?? .null
    }

    /// Moves the clock forward and says so on the events stream; false (unchanged) past the bound
    /// of `OffsetClock.maxOffsetSeconds` ahead in all.
    @discardableResult
    package func advanceClock(by seconds: TimeInterval) -> Bool {
        guard clock.advance(by: seconds) else { return false }
        logger.info("mock clock moved forward \(seconds) s (now \(ISO8601.string(clock.now())))")
        publishClock()
        return true
    }

    /// Puts the clock back to its base.
    package func resetClock() {
        clock.reset()
        logger.info("mock clock back to real time")
        publishClock()
    }

    private func publishClock() {
        let data = clockJSON
        events.publish(kind: "clock", at: clock.now()) { data }
    }

    /// Why a token control was refused.
    struct UnknownSystem: Error, CustomStringConvertible {
        package let description: String
    }

    /// Expires (or revokes) one token or all of one or every system's; returns how many were affected.
    package func tokens(revoke: Bool, system: String?, token: String?) throws -> Int {
        if let system, !systems.contains(where: { $0.name == system }) {
            throw UnknownSystem(description: "unknown system \"\(system)\" (systems: \(systems.map(\.name).joined(separator: ", ")))")
        }
        var affected = 0
        for entry in systems where system == nil || entry.name == system {
            affected += revoke ? entry.revokeTokens(token) : entry.expireTokens(token)
        }
        logger.info("\(revoke ? "revoked" : "expired") \(affected) token(s)\(system.map { " of \($0)" } ?? "")")
        return affected
    }
}

/// Where a test holds the journal's background build: it signals `reached`, then waits for `release`.
package final class JournalBuildHold: Sendable {
    package let reached = DispatchSemaphore(value: 0)
    package let release = DispatchSemaphore(value: 0)
}
