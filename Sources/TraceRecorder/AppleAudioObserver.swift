#if canImport(AVFoundation) && canImport(CallKit) && os(iOS)
import AVFoundation
import CallKit
import Foundation
import TraceModel
import UIKit

/// Records what iOS tells an RTC SDK: route changes (and the external devices they add or remove),
/// interruptions, media services resets, other calls (`CXCallObserver`), the app's own CallKit call
/// (through the methods below, which the SDK calls from its `CXProviderDelegate`), the app's
/// foreground and background, and the microphone permission.
///
/// Compiled only where AVFoundation's audio session and CallKit exist; every mapping it uses is in
/// `AppleAudioMapping`, tested on every platform.
public final class AppleAudioObserver: NSObject, CXCallObserverDelegate, @unchecked Sendable {
    private let recorder: TraceRecorder
    private let callObserver = CXCallObserver()
    private let lock = RecorderLock()
    private var calls = AppleAudioMapping.CallTracker()
    private var tokens: [NSObjectProtocol] = []

    /// An observer that records into `recorder`; call `start()` to subscribe.
    public init(recorder: TraceRecorder) {
        self.recorder = recorder
        super.init()
    }

    /// Subscribes to the notifications and the call observer, and records the current microphone
    /// permission, app state and route. Call it on the main thread, once.
    @MainActor
    public func start() {
        let center = NotificationCenter.default
        let session = AVAudioSession.sharedInstance()
        tokens.append(center.addObserver(forName: AVAudioSession.routeChangeNotification, object: session, queue: nil) { [weak self] n in
            let reason = (n.userInfo?[AVAudioSessionRouteChangeReasonKey] as? NSNumber)?.uintValue ?? 0
            let previous = (n.userInfo?[AVAudioSessionRouteChangePreviousRouteKey] as? AVAudioSessionRouteDescription)?.outputs ?? []
            self?.routeChanged(reason: reason, previous: previous.map(Self.port),
                               current: AVAudioSession.sharedInstance().currentRoute.outputs.map(Self.port))
        })
        tokens.append(center.addObserver(forName: AVAudioSession.interruptionNotification, object: session, queue: nil) { [weak self] n in
            guard let self, let type = (n.userInfo?[AVAudioSessionInterruptionTypeKey] as? NSNumber)?.uintValue else { return }
            let options = (n.userInfo?[AVAudioSessionInterruptionOptionKey] as? NSNumber)?.uintValue
            let callUp = lock.withLock { calls.otherCallUp }
            if let event = AppleAudioMapping.interruption(typeRawValue: type, optionsRawValue: options, otherCallUp: callUp) {
                recorder.record(event)
            }
        })
        tokens.append(center.addObserver(forName: AVAudioSession.mediaServicesWereResetNotification, object: nil, queue: nil) { [weak self] _ in
            self?.recorder.record(.mediaServicesReset)
        })
        tokens.append(center.addObserver(forName: UIApplication.didEnterBackgroundNotification, object: nil, queue: nil) { [weak self] _ in
            self?.recorder.record(.appState(.background))
            // The app may be suspended or killed from here on: write what waits.
            self?.recorder.flush()
        })
        tokens.append(center.addObserver(forName: UIApplication.willEnterForegroundNotification, object: nil, queue: nil) { [weak self] _ in
            self?.recorder.record(.appState(.foreground))
            self?.recordMicPermission()
        })
        callObserver.setDelegate(self, queue: nil)
        recordMicPermission()
        recorder.record(.appState(UIApplication.shared.applicationState == .background ? .background : .foreground))
        for call in callObserver.calls { changed(call) }
        let outputs = session.currentRoute.outputs.map(Self.port)
        recorder.record(.routeSnapshot(route: AppleAudioMapping.route(outputs: outputs), ports: AppleAudioMapping.snapshotPorts(outputs)))
    }

    /// Unsubscribes.
    @MainActor
    public func stop() {
        for t in tokens { NotificationCenter.default.removeObserver(t) }
        tokens.removeAll()
        callObserver.setDelegate(nil, queue: nil)
    }

    // MARK: CallKit provider callbacks (call these from the SDK's CXProviderDelegate)

    /// `provider(_:perform:)` with a `CXAnswerCallAction`: the user answered the app's call.
    public func providerPerformed(_ action: CXAnswerCallAction) { ownCall(.answer, action.callUUID) }
    /// `provider(_:perform:)` with a `CXStartCallAction`: the app's call is starting.
    public func providerPerformed(_ action: CXStartCallAction) { ownCall(.start, action.callUUID) }
    /// `provider(_:perform:)` with a `CXEndCallAction`: the app's call ended.
    public func providerPerformed(_ action: CXEndCallAction) { ownCall(.end, action.callUUID) }
    /// The app reported its call ended (`reportCall(with:endedAt:reason:)`), without an action.
    public func providerReportedEnd(callUUID: UUID) { ownCall(.end, callUUID) }

    /// `provider(_:didActivate:)`: CallKit activated the audio session for the app's call.
    public func providerDidActivate(_ audioSession: AVAudioSession) { recorder.record(.callKit(.didActivate)) }
    /// `provider(_:didDeactivate:)`: CallKit deactivated it.
    public func providerDidDeactivate(_ audioSession: AVAudioSession) { recorder.record(.callKit(.didDeactivate)) }

    // MARK: Other calls

    /// `CXCallObserverDelegate`: another call (cellular, FaceTime, another app's) changed.
    public func callObserver(_ callObserver: CXCallObserver, callChanged call: CXCall) { changed(call) }

    /// Tells the observer a call is the app's own, before CallKit reports it: call it when the app
    /// reports an incoming call (`reportNewIncomingCall`) or requests a `CXStartCallAction`.
    public func markOwnCall(_ uuid: UUID) {
        let id = uuid.uuidString
        lock.withLock { calls.markOwn(id) }
    }

    private func changed(_ call: CXCall) {
        let state = AppleAudioMapping.callState(hasConnected: call.hasConnected, hasEnded: call.hasEnded,
                                                isOutgoing: call.isOutgoing, isOnHold: call.isOnHold)
        let id = call.uuid.uuidString
        if let record = lock.withLock({ calls.changed(callId: id, state: state) }) {
            recorder.record(.callState(record))
        }
    }

    // MARK: Helpers

    private func ownCall(_ event: CallKitEvent, _ uuid: UUID) {
        let id = uuid.uuidString
        if event != .end { lock.withLock { calls.markOwn(id) } }
        recorder.record(.callKit(event, callId: id))
    }

    private func routeChanged(reason: UInt, previous: [AppleAudioMapping.Port], current: [AppleAudioMapping.Port]) {
        for e in AppleAudioMapping.routeChange(reasonRawValue: reason, previous: previous, current: current) { recorder.record(e) }
    }

    private func recordMicPermission() {
        let raw: UInt
        if #available(iOS 17.0, *) {
            raw = UInt(AVAudioApplication.shared.recordPermission.rawValue)
        } else {
            raw = AVAudioSession.sharedInstance().recordPermission.rawValue
        }
        recorder.record(.micPermission(AppleAudioMapping.micPermission(rawValue: raw)))
    }

    private static func port(_ p: AVAudioSessionPortDescription) -> AppleAudioMapping.Port {
        AppleAudioMapping.Port(type: p.portType.rawValue, name: p.portName, uid: p.uid)
    }

    /// Records a (re)activation of the audio session as the SDK configured it; call it right after
    /// `setActive(true)` returned or threw.
    public func recordActivation(_ session: AVAudioSession = .sharedInstance(), error: Error? = nil) {
        recorder.record(.sessionActivated(ok: error == nil, error: error.map { "\(($0 as NSError).domain).\(($0 as NSError).code)" },
                                          category: AppleAudioMapping.category(rawValue: session.category.rawValue),
                                          mode: AppleAudioMapping.mode(rawValue: session.mode.rawValue),
                                          options: AppleAudioMapping.categoryOptions(rawValue: session.categoryOptions.rawValue)))
    }
}
#endif
