import Contract
@testable import RouteEngine
import TraceFixtures
import TraceModel
import XCTest

/// The prediction tells an AirPlay kind and a denied microphone by their case (`RouteEngine+Values.swift`):
/// held to the comparison of the values they replace, unlisted values spelled like listed ones included,
/// and the device that has the route to the scan from the newest device it replaced.
final class RouteEngineCaseTests: XCTestCase {
    func test_isAirPlay_isTheComparisonWithAirPlay_forEveryKind() {
        let kinds: [DeviceKind] = DeviceKind.listed + [.unlisted("airplay"), .unlisted("AirPlay"), .unlisted(""), .unlisted("hearingAid")]
        for kind in kinds {
            XCTAssertEqual(RouteEngine.State.isAirPlay(kind), kind == .airplay, "\(kind)")
        }
    }

    func test_micDenied_isTheComparisonWithDenied_forEveryPermission() {
        let values: [MicPermission] = MicPermission.listed + [.unlisted("denied"), .unlisted("Denied"), .unlisted("2"), .unlisted("")]
        var s = RouteEngine.State()
        for value in values {
            s.micPermission = value
            XCTAssertEqual(s.micDenied, value == .denied, "\(value)")
        }
    }

    func test_routeDevice_isTheNewestDeviceThatCanTakeTheRoute() {
        let kinds: [DeviceKind] = [.bluetooth, .airplay, .headset, .carAudio, .unlisted("airplay")]
        var rng = SplitMix64(seed: 31)
        for round in 0..<200 {
            var s = RouteEngine.State()
            s.engaged = Bool.random(using: &rng)
            if Bool.random(using: &rng) { s.callSession = .init(seq: 1, mode: "voiceChat", allowsAirPlay: Bool.random(using: &rng)) }
            s.devices = (0..<Int.random(in: 0...4, using: &rng)).map {
                .init(id: "d\($0)", kind: kinds.randomElement(using: &rng)!, seq: 10 + $0)
            }
            let scan = s.callKitChoice == nil ? s.devices.last { d in
                !(d.kind == .airplay && s.engaged) || (s.callSession?.allowsAirPlay ?? false)
            } : nil
            XCTAssertEqual(s.routeDevice, scan, "round \(round): \(s.devices)")
            XCTAssertEqual(s.predictedRoute, s.predicted(override: s.override, callKitWindow: s.callKitActionSeq != nil))
        }
    }
}
