import TraceModel
@testable import TraceRecorder
import XCTest

/// The wake rules of one slot, each met once per take: the first record after the writer slept (and a
/// new slot's first), half the slot's records, a quarter of its byte cap; an app call each time.
final class WakeRuleTests: XCTestCase {
    private let payload = TraceRecorder.Event.leaveChannel.payload

    private func offer(_ size: Int, appCall: Bool = false) -> Offer {
        Offer(nanos: 1, size: size, clipped: false, appCall: appCall)
    }

    func test_eachWakeRule_wakesOncePerTake_andAnAppCallEachTime() {
        var slot = SlotState(accept: .accepting, recordCap: 10, byteCap: 1_000, realtime: false)
        var woke: [Int] = []
        for i in 1...10 where slot.append(offer(1), UInt64(i), payload).wake { woke.append(i) }
        // A new slot's first record, then half the slot (5 of 10); none after.
        XCTAssertEqual(woke, [1, 5])
        XCTAssertFalse(slot.append(offer(1), 11, payload).queued, "the record cap drops")

        // After a take, only half the slot wakes until the writer arms the slot before it sleeps.
        slot.items.removeAll()
        slot.bytes = 0
        slot.rearm()
        woke = []
        for i in 1...6 where slot.append(offer(1), UInt64(i), payload).wake { woke.append(i) }
        XCTAssertEqual(woke, [5])
        slot.items.removeAll()
        slot.bytes = 0
        slot.rearm()
        slot.armWake()
        woke = []
        for i in 1...6 where slot.append(offer(1), UInt64(i), payload).wake { woke.append(i) }
        XCTAssertEqual(woke, [1, 5])

        // A quarter of the byte cap wakes once; an app call each time.
        slot.items.removeAll()
        slot.bytes = 0
        slot.rearm()
        woke = []
        for i in 1...4 where slot.append(offer(100), UInt64(i), payload).wake { woke.append(i) }
        XCTAssertEqual(woke, [3], "250 bytes are reached by the third record of 100")
        XCTAssertTrue(slot.append(offer(1, appCall: true), 5, payload).wake)
        XCTAssertTrue(slot.appCall)
        XCTAssertTrue(slot.append(offer(1, appCall: true), 6, payload).wake)
        XCTAssertFalse(slot.append(offer(1), 7, payload).wake)
    }

    /// A real-time producer's slot wakes at half its storage's capacity, which never grows.
    func test_aRealtimeSlot_wakesAtHalfItsCapacity() {
        var slot = SlotState(accept: .accepting, recordCap: 1_000, byteCap: 1 << 20, realtime: true)
        slot.items.reserveCapacity(8)
        let capacity = slot.items.capacity
        var woke: [Int] = [], queued = 0
        for i in 1...(capacity + 2) {
            let r = slot.append(offer(1), UInt64(i), payload)
            if r.wake { woke.append(i) }
            if r.queued { queued += 1 }
        }
        XCTAssertEqual(woke, [1, capacity / 2])
        XCTAssertEqual(queued, capacity, "a record at the capacity drops")
        XCTAssertEqual(slot.counts.dropped, 2)
    }
}
