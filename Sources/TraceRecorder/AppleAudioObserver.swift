#if canImport(AVFoundation) && canImport(CallKit) && os(iOS)
import AVFoundation
import CallKit
import Foundation
import SystemLayer
import TraceModel
import UIKit

/// Records what iOS tells an RTC SDK: route changes and the external devices connected (across the
/// route's outputs and the available inputs), interruptions (with their reason, and the other call that
/// explains them in whichever order the two notifications come), media services lost and reset, other
/// calls (`CXCallObserver`), the app's own CallKit call (through the methods below, which the SDK calls
/// from its `CXProviderDelegate`), the app's foreground and background, and the microphone permission.
///
/// Safe in an app extension (a broadcast upload extension, a notification service): it never touches
/// `UIApplication.shared`; the SDK passes the app state it starts in. Compiled only where AVFoundation's
/// audio session and CallKit exist; every decision it takes is in `AppleAudioMapping`, tested on every platform.
public final class AppleAudioObserver: NSObject, CXCallObserverDelegate, @unchecked Sendable {
    private let recorder: TraceRecorder
    private let callObserver = CXCallObserver()
    private let lock = Lock()
    private let queue = DispatchQueue(label: "rtctrace.apple-observer")
    private var calls = AppleAudioMapping.CallTracker()
    private var devices = AppleAudioMapping.DeviceTracker()
    private var interruptions = AppleAudioMapping.InterruptionResolver()
    private var tokens: [NSObjectProtocol] = []

    /// An observer that records into `recorder`; call `start(appState:)` to subscribe.
    public init(recorder: TraceRecorder) {
        self.recorder = recorder
        super.init()
    }

    /// Subscribes to the notifications and the call observer, and records the current microphone
    /// permission, the devices connected and the route, and `appState` when given (an app passes
    /// `UIApplication.shared.applicationState == .background ? .background : .foreground`; an extension
    /// passes nothing). Call it once, on the main thread.
    @MainActor
    public func start(appState: AppState? = nil) {
        let center = NotificationCenter.default
        let session = AVAudioSession.sharedInstance()
        tokens.append(center.addObserver(forName: AVAudioSession.routeChangeNotification, object: session, queue: nil) { [weak self] n in
            let reason = (n.userInfo?[AVAudioSessionRouteChangeReasonKey] as? NSNumber)?.uintValue ?? 0
            let previous = (n.userInfo?[AVAudioSessionRouteChangePreviousRouteKey] as? AVAudioSessionRouteDescription)?.outputs ?? []
            let s = AVAudioSession.sharedInstance()
            self?.routeChanged(reason: reason, previous: previous.map(Self.port), current: s.currentRoute.outputs.map(Self.port),
                               inputs: (s.availableInputs ?? []).map(Self.port))
        })
        tokens.append(center.addObserver(forName: AVAudioSession.interruptionNotification, object: session, queue: nil) { [weak self] n in
            guard let self, let type = (n.userInfo?[AVAudioSessionInterruptionTypeKey] as? NSNumber)?.uintValue else { return }
            let options = (n.userInfo?[AVAudioSessionInterruptionOptionKey] as? NSNumber)?.uintValue
            var reason: UInt?
            if #available(iOS 14.5, *) { reason = (n.userInfo?[AVAudioSessionInterruptionReasonKey] as? NSNumber)?.uintValue }
            let suspended = (n.userInfo?[AVAudioSessionInterruptionWasSuspendedKey] as? NSNumber)?.boolValue
            let now = recorder.configuration.clock.monotonicNanoseconds()
            let decisions: [AppleAudioMapping.InterruptionResolver.Decision] = lock.withLock {
                interruptions.interruption(typeRawValue: type, optionsRawValue: options, reasonRawValue: reason, wasSuspended: suspended,
                                           otherCallUp: calls.otherCallUp, at: now)
            }
            record(decisions)
            scheduleInterruptionCheck()
        })
        tokens.append(center.addObserver(forName: AVAudioSession.mediaServicesWereLostNotification, object: nil, queue: nil) { [weak self] _ in
            // The format has no record for it: a custom event, which support sees and the engines ignore
            // (they act on the reset that follows). The app may die here: write what waits.
            self?.recorder.record(.custom("mediaServicesLost"))
            self?.recorder.flush()
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
        callObserver.setDelegate(self, queue: queue)
        recordMicPermission()
        if let appState { recorder.record(.appState(appState)) }
        for call in callObserver.calls { changed(call) }
        let outputs = session.currentRoute.outputs.map(Self.port), inputs = (session.availableInputs ?? []).map(Self.port)
        let connected = lock.withLock { devices.update(outputs: outputs, inputs: inputs) }
        for e in connected { recorder.record(e) }
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
    /// `provider(_:perform:)` with a `CXSetHeldCallAction`: the app's call was held or resumed (I11).
    public func providerPerformed(_ action: CXSetHeldCallAction) {
        ownCall(AppleAudioMapping.heldCallEvent(isOnHold: action.isOnHold), action.callUUID)
    }
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
        let now = recorder.configuration.clock.monotonicNanoseconds()
        let (decisions, record): ([AppleAudioMapping.InterruptionResolver.Decision], CallState?) = lock.withLock {
            guard let r = calls.changed(callId: id, state: state) else { return (interruptions.tick(at: now), nil) }
            return (interruptions.callChanged(to: r, at: now), r)
        }
        self.record(decisions)
        if let record { recorder.record(.callState(record)) }
    }

    // MARK: Helpers

    private func record(_ decisions: [AppleAudioMapping.InterruptionResolver.Decision]) {
        for d in decisions { recorder.record(d.event, madeAt: d.madeAt) }
    }

    /// Decides a pending interruption once its window for a call is over.
    private func scheduleInterruptionCheck() {
        guard let deadline = lock.withLock({ interruptions.deadline }) else { return }
        let now = recorder.configuration.clock.monotonicNanoseconds()
        queue.asyncAfter(deadline: .now() + .nanoseconds(Int(deadline > now ? deadline - now : 0) + 1_000_000)) { [weak self] in
            guard let self else { return }
            let now = recorder.configuration.clock.monotonicNanoseconds()
            record(lock.withLock { interruptions.tick(at: now) })
        }
    }

    private func ownCall(_ event: CallKitEvent, _ uuid: UUID) {
        let id = uuid.uuidString
        if event != .end { lock.withLock { calls.markOwn(id) } }
        recorder.record(.callKit(event, callId: id))
    }

    private func routeChanged(reason: UInt, previous: [AppleAudioMapping.Port], current: [AppleAudioMapping.Port], inputs: [AppleAudioMapping.Port]) {
        let events = lock.withLock { devices.routeChange(reasonRawValue: reason, previous: previous, current: current, availableInputs: inputs) }
        for e in events { recorder.record(e) }
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

    private static func errorText(_ error: Error) -> String {
        let e = error as NSError
        return AppleAudioMapping.sessionError(domain: e.domain, code: e.code)
    }

    /// Records a (re)activation of the audio session as the SDK configured it; call it right after
    /// `setActive(true)` returned or threw.
    public func recordActivation(_ session: AVAudioSession = .sharedInstance(), error: Error? = nil) {
        recorder.record(.sessionActivated(ok: error == nil, error: error.map(Self.errorText),
                                          category: AppleAudioMapping.category(rawValue: session.category.rawValue),
                                          mode: AppleAudioMapping.mode(rawValue: session.mode.rawValue),
                                          options: AppleAudioMapping.categoryOptions(rawValue: session.categoryOptions.rawValue)))
    }

    /// Records a deactivation; call it right after `setActive(false, options:)` returned or threw
    /// (`isBusy` when audio objects were still running).
    public func recordDeactivation(notifyOthers: Bool, error: Error? = nil) {
        recorder.record(.sessionDeactivated(notifyOthers: notifyOthers, ok: error == nil, error: error.map(Self.errorText)))
    }
}
#endif
