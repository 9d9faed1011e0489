import Foundation
import HTTPServer
import Routes
import MockTestSupport
import TestSupport
import XCTest
import MockControl

/// The events stream: every kind, in order, and a slow subscriber dropped instead of blocking.
final class EventHubTests: MockServerTestCase {
    func testEventsArriveInOrderWithTheirKinds() throws {
        let subscription = server.app.control.events.subscribe()
        defer { subscription.cancel() }
        let code = try server.musbookingCode(phone: "9123456789")
        _ = try server.addFault(["path": "/rows/*", "times": 1, "action": ["status": 500]])
        _ = try server.request("GET", "/rows/1")
        _ = try server.request("POST", "/__mock/clock", json: ["advanceSeconds": 5])
        _ = try server.request("POST", "/__mock/reset", headers: TestServer.adminWrite)

        var events: [MockEvent] = []
        while let event = subscription.next(timeout: 5) {
            events.append(event)
            if event.kind == "reset" { break }
        }
        XCTAssertEqual(events.map(\.kind), ["sms", "request", "fault.added", "fault", "fault.usedUp", "request", "clock", "reset"])
        XCTAssertEqual(events.map(\.sequence), events.map(\.sequence).sorted())
        let objects = events.compactMap { JSON.parseObject($0.json) }
        XCTAssertEqual(objects.count, events.count)
        XCTAssertTrue(objects.allSatisfy { Set($0.keys) == ["kind", "at", "data"] })
        XCTAssertEqual((objects[0]["data"] as? [String: Any])?["code"] as? String, code, "the console shows the code")
        XCTAssertEqual((objects[1]["data"] as? [String: Any])?["path"] as? String, "/api/users/sms")
        XCTAssertEqual((objects[5]["data"] as? [String: Any])?["status"] as? Int, 500)
        XCTAssertEqual((objects[6]["data"] as? [String: Any])?["offsetSeconds"] as? Double, 5)
    }

    func testASlowSubscriberIsDroppedAndOthersKeepReceiving() {
        let hub = EventHub()
        let slow = hub.subscribe(capacity: 2)
        let fast = hub.subscribe(capacity: 100)
        for i in 1...5 { hub.publish(kind: "request", at: Date()) { ["n": .number(Double(i))] } }
        XCTAssertTrue(slow.isDropped)
        XCTAssertEqual(slow.drain().count, 2)
        XCTAssertNil(slow.next(timeout: 0.01))
        XCTAssertEqual(fast.drain().map(\.sequence), [1, 2, 3, 4, 5])
        hub.publish(kind: "sms", at: Date()) { [:] }
        XCTAssertEqual(fast.next(timeout: 1)?.kind, "sms")
        fast.cancel()
        XCTAssertFalse(hub.hasSubscribers)
    }

    func testNobodyListeningCostsNoEncoding() {
        let hub = EventHub()
        let built = Locked(0)
        hub.publish(kind: "request", at: Date()) { built.withLock { $0 += 1 }; return [:] }
        XCTAssertEqual(built.withLock { $0 }, 0)
        let sub = hub.subscribe()
        let woken = Locked(0)
        let other = hub.subscribe(onAvailable: { woken.withLock { $0 += 1 } })
        hub.publish(kind: "request", at: Date()) { built.withLock { $0 += 1 }; return [:] }
        hub.publish(kind: "request", at: Date()) { [:] }
        XCTAssertEqual(built.withLock { $0 }, 1)
        XCTAssertEqual(woken.withLock { $0 }, 1, "woken when its queue went from empty to non-empty")
        XCTAssertEqual(sub.drain().count, 2)
        XCTAssertEqual(other.drain().count, 2)
    }
}

/// The pump the events WebSocket will use: order kept, a fallen-behind sink told once.
final class EventPumpTests: XCTestCase {
    func testEventsReachTheSinkInOrder() {
        let hub = EventHub()
        let got = Locked<[Int]>([])
        let all = expectation(description: "100 events")
        let pump = EventPump(hub: hub, send: { events in
            let count = got.withLock { $0.append(contentsOf: events.map(\.sequence)); return $0.count }
            if count == 100 { all.fulfill() }
        }, onDropped: { XCTFail("dropped") })
        for i in 1...100 { hub.publish(kind: "request", at: Date()) { ["n": .number(Double(i))] } }
        wait(for: [all], timeout: 10)
        XCTAssertEqual(got.withLock { $0 }, Array(1...100))
        pump.cancel()
        XCTAssertFalse(hub.hasSubscribers)
    }

    func testEventsPublishedWhileADeliveryRunsGoOutAsOneBatch() {
        let hub = EventHub()
        let inFirst = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let batches = Locked<[[Int]]>([])
        let second = expectation(description: "second batch")
        let pump = EventPump(hub: hub, send: { events in
            let n = batches.withLock { $0.append(events.map(\.sequence)); return $0.count }
            if n == 1 { inFirst.signal(); release.wait() }
            if n == 2 { second.fulfill() }
        }, onDropped: { XCTFail("dropped") })
        hub.publish(kind: "request", at: Date()) { ["n": 1] }
        XCTAssertEqual(inFirst.wait(timeout: .now() + 10), .success, "the first event was delivered")
        // The sink is busy with the first batch: these wait in the queue and leave together.
        for i in 2...51 { hub.publish(kind: "request", at: Date()) { ["n": .number(Double(i))] } }
        release.signal()
        wait(for: [second], timeout: 10)
        XCTAssertEqual(batches.withLock { $0 }, [[1], Array(2...51)])
        pump.cancel()
    }

    func testASinkThatFallsBehindIsDroppedOnce() {
        let hub = EventHub()
        let gate = DispatchSemaphore(value: 0)
        let dropped = expectation(description: "dropped")
        let pump = EventPump(hub: hub, capacity: 2, send: { _ in gate.wait() }, onDropped: { dropped.fulfill() })
        for i in 1...10 { hub.publish(kind: "request", at: Date()) { ["n": .number(Double(i))] } }
        for _ in 0..<10 { gate.signal() }
        wait(for: [dropped], timeout: 10)
        XCTAssertFalse(hub.hasSubscribers, "the hub forgot the slow subscriber")
        pump.cancel()
    }
}
