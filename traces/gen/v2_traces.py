#!/usr/bin/env python3
"""Writes the golden traces of contract version 2 into traces/ (deterministic, Python 3 stdlib only).

Each pins one or more of R11, R12, I5, I6, I7, V2, X4 and the version-2 finding codes with expect.* records.
Run:  python3 traces/gen/v2_traces.py   (build_all.sh compresses the two large ones).
"""
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tracelib import Trace  # noqa: E402

OUT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TRACES = []  # (file name, description, function)
MIN = 60000
EARPODS = dict(id="wired-headphones", kind="headset", name="EarPods", port="Headphones")
CALL_ID = "6F1C2B4E-93A0-4D7A-9E5B-1B8D2E0C7A41"


def trace(name, desc):
    def deco(fn):
        TRACES.append((name, desc, fn))
        return fn
    return deco


def steady(pub="excellent", sub="good"):
    return lambda t: (pub, sub)


def last(T, type):
    return [r for r in T.recs if r["type"] == type][-1]["seq"]


@trace("srtc-videochat-receiver-unreachable.jsonl",
       "SRTC video call in videoChat: iOS applies allowBluetooth and defaultToSpeaker itself (R11), so no "
       "session.missingAllowBluetooth, the prediction is the speaker, the device's brief receiver reading is a "
       "divergence predicted by R11, and setAudioRoute(.earpiece) is ineffective/videoChatMode.")
def videochat_srtc():
    T = Trace("srtc", seed=201, model="iPhone15,2", os="iOS 17.5.1")
    T.every(2500, 30000, 2000, steady("excellent", "good"))
    T.standard_join(1000, "design-review", mode="videoChat", options=("allowBluetoothA2DP",), first_route="receiver")
    a = last(T, "obs.sessionActivated")
    T.rec(2300, "obs.overrideOutput", port="speaker")
    T.route(2320, "speaker", "override")
    T.exp(2400, "route", rule="R11", route="speaker")
    T.exp(2400, "noFinding", rule="R11", code="session.missingAllowBluetooth")
    T.exp(2400, "noFinding", code="session.wrongMode")
    T.exp(2400, "divergences", rule="X2", count=1)
    T.predicted_by(2400, 0, "R11", seq=a, applied_by=None)
    e = T.set_route(9000, "earpiece", api="setAudioRoute(.earpiece)")
    T.log(9002, "setAudioRoute(.earpiece): session mode videoChat keeps the speaker", level="warning")
    T.exp(9010, "verdict", rule="R11", ref=e, verdict="ineffective", cause="videoChatMode")
    T.exp(9010, "outcome", rule="V2", ref=e, outcome="ineffective", cause="videoChatMode", by=e)
    T.exp(9010, "route", rule="R11", route="speaker")
    T.snapshot(9500, "speaker", ports=["Speaker"])
    T.standard_leave(30000)
    T.exp(30100, "divergences", end=True, rule="X4", count=1)
    T.exp(30100, "finding", end=True, code="route.ineffective", count=1)
    T.exp(30100, "finding", end=True, code="route.divergence", count=1)
    return T


@trace("smeeting-other-component-category-change.jsonl",
       "SMeeting: the member's speaker choice is applied; 20 s later the app's own video player changes the audio "
       "session category behind the SDK's back and the device drops to the receiver -> session.changedByOtherComponent "
       "and a divergence it explains; a second change inside it starts nothing new; the SDK re-applies at 31 s.")
def other_component_smeeting():
    T = Trace("smeeting", seed=202, model="iPhone14,2", os="iOS 17.4.1")
    T.every(2600, 60000, 2000, steady("excellent", "excellent"))
    T.standard_join(1000, "design-critique")
    s = T.set_route(4000, "speaker", api="setSpeakerOutputEnabled(true)")
    T.rec(4010, "obs.overrideOutput", port="speaker")
    T.route(4030, "speaker", "override")
    T.exp(4100, "verdict", rule="V1", ref=s, verdict="applied")
    T.route(21000, "receiver", "categoryChange")
    T.exp(21000, "finding", rule="R12", code="session.changedByOtherComponent", count=1)
    T.exp(21000, "route", rule="R12", route="speaker")
    T.snapshot(23000, "receiver", ports=["Receiver"])
    T.exp(23000, "divergences", rule="X3", count=1)
    T.route(26000, "receiver", "categoryChange")
    T.exp(26000, "finding", rule="R12", code="session.changedByOtherComponent", count=2)
    s2 = T.set_route(31000, "speaker", api="setSpeakerOutputEnabled(true)")
    T.rec(31010, "obs.overrideOutput", port="speaker")
    T.route(31030, "speaker", "override")
    T.exp(31100, "verdict", rule="V1", ref=s2, verdict="noop")
    T.exp(31100, "divergences", rule="R12", count=1)
    T.standard_leave(60000)
    T.predicted_by(60100, 0, "R2", seq=s, applied_by=None, end=True)
    T.exp(60100, "divergences", end=True, rule="X3", count=1)
    T.exp(60100, "finding", end=True, rule="X3", code="route.divergence", count=1)
    T.exp(60100, "finding", end=True, code="session.changedByOtherComponent", count=2)
    return T


@trace("smeeting-default-speaker-before-enter.jsonl",
       "SMeeting: defaultAudioRoute = .speaker before entering is deferred and takes effect at enterMeeting (V2); 50 ms "
       "after the SDK's own activation a category change puts the device on the receiver: the activation accounts for "
       "the change (no R12), so the divergence predicted by the default and the enter (X4) is UNEXPLAINED.")
def default_before_enter_smeeting():
    T = Trace("smeeting", seed=203, model="iPhone15,3", os="iOS 17.5")
    d = T.set_default(400, "speaker")
    T.exp(410, "verdict", rule="V1", ref=d, verdict="deferred", cause="notEngaged")
    T.exp(410, "outcome", rule="V2", ref=d, outcome="pending")
    T.every(2600, 30000, 2000, steady("good", "excellent"))
    e = T.standard_join(1500, "ward-round", options=("defaultToSpeaker", "allowBluetooth", "allowBluetoothA2DP"),
                        first_route="speaker")
    T.exp(1580, "outcome", rule="V2", ref=d, outcome="applied", by=e)
    T.route(1610, "receiver", "categoryChange")
    T.exp(1620, "noFinding", rule="R12", code="session.changedByOtherComponent")
    T.snapshot(6000, "receiver", ports=["Receiver"])
    T.exp(6000, "divergences", rule="X2", count=1)
    T.standard_leave(30000)
    T.predicted_by(30100, 0, "R2", seq=d, applied_by=e, end=True)
    T.exp(30100, "divergences", end=True, rule="X4", count=1)
    T.exp(30100, "finding", end=True, code="route.divergence", count=1)
    T.exp(30100, "noFinding", end=True, code="session.missingDefaultToSpeaker")
    T.exp(30100, "noFinding", end=True, code="session.changedByOtherComponent")
    return T


@trace("srtc-media-services-reset.jsonl",
       "SRTC: media services are reset mid-call (I5): no prediction until the SDK's next successful activation, a "
       "speaker tap meanwhile is deferred and applied by that rebuild (V2); a second reset is never rebuilt and "
       "session.notRebuiltAfterReset is raised after the recovery window; interruptions meanwhile are ignored.")
def media_reset_srtc():
    T = Trace("srtc", seed=204, model="iPhone13,2", os="iOS 16.7.10")
    T.every(2500, 40000, 2000, steady("excellent", "good"))
    T.standard_join(1000, "night-shift-handover")
    T.rec(9000, "os.mediaServicesReset")
    T.log(9004, "mediaServicesWereReset: rebuilding the audio unit", level="warning")
    T.exp(9010, "interrupted", rule="I5", value=True)
    T.exp(9010, "route", rule="I5", route=None)
    s = T.set_route(9400, "speaker", api="setAudioRoute(.speaker)")
    T.exp(9410, "verdict", rule="I5", ref=s, verdict="deferred", cause="interrupted")
    a = T.activate(9800)
    T.rec(9820, "obs.overrideOutput", port="speaker")
    T.route(9840, "speaker", "override")
    T.rec(9850, "sdk.recovered")
    T.exp(9900, "interrupted", rule="I5", value=False)
    T.exp(9900, "outcome", rule="V2", ref=s, outcome="applied", by=a)
    T.exp(9900, "route", rule="I5", route="speaker")
    T.rec(20000, "os.mediaServicesReset")
    T.rec(20400, "os.interruptionBegan", cause="otherApp")
    T.rec(21000, "os.interruptionEnded", shouldResume=True)
    T.exp(21100, "interrupted", rule="I5", value=True)
    T.exp(25000, "noFinding", rule="I5", code="session.notRebuiltAfterReset")
    T.exp(25001, "finding", rule="I5", code="session.notRebuiltAfterReset", count=1)
    T.standard_leave(40000)
    T.exp(40100, "engaged", rule="I5", value=False)
    T.exp(40100, "divergences", end=True, rule="X2", count=0)
    T.exp(40100, "finding", end=True, code="session.notRebuiltAfterReset", count=1)
    return T


@trace("srtc-interruption-end-never-arrived.jsonl",
       "SRTC: a Siri interruption never gets its end; returning to the foreground recovers as if it had ended (I6). "
       "Then a FaceTime call interrupts; it ends (idle, no retry) and a foreground record less than D ms later "
       "changes nothing; the next one, D ms after the hang-up, recovers: interruption.endNeverArrived twice.")
def end_never_arrived_srtc():
    T = Trace("srtc", seed=205, model="iPhone14,7", os="iOS 17.2")
    T.every(2500, 40000, 2000, steady("good", "good"))
    T.standard_join(1000, "standup-77")
    T.rec(8000, "os.interruptionBegan", cause="siri")
    T.rec(8010, "sdk.interrupted")
    T.rec(8200, "os.appState", state="background")
    T.exp(9000, "interrupted", rule="I1", value=True)
    T.rec(15000, "os.appState", state="foreground")
    T.exp(15000, "interrupted", rule="I6", value=False)
    T.exp(15000, "finding", rule="I6", code="interruption.endNeverArrived", count=1)
    T.activate(15040)
    T.rec(15060, "sdk.recovered")
    T.rec(20000, "os.callState", state="incoming")
    T.rec(20010, "os.interruptionBegan", cause="systemCall")
    T.rec(20020, "sdk.interrupted")
    T.rec(21000, "os.callState", state="connected")
    T.rec(21500, "os.appState", state="background")
    T.rec(24000, "os.callState", state="idle")
    T.rec(25000, "os.appState", state="foreground")
    T.exp(25100, "interrupted", rule="I6", value=True)
    T.rec(26000, "os.appState", state="foreground")
    T.exp(26000, "interrupted", rule="I6", value=False)
    T.exp(26000, "finding", rule="I6", code="interruption.endNeverArrived", count=2)
    T.activate(26030)
    T.rec(26040, "sdk.recovered")
    T.standard_leave(40000)
    T.exp(40100, "noFinding", end=True, code="interruption.notRecovered")
    T.exp(40100, "divergences", end=True, rule="X2", count=0)
    return T


@trace("srtc-callkit-activation-race.jsonl",
       "SRTC with CallKit: the user answers; the SDK activates the session itself before CallKit's didActivate "
       "(callkit.activatedBeforeDidActivate once for the window, a retry in it adds none); later an outgoing call's "
       "start never gets didActivate -> callkit.noDidActivate after the recovery window (inclusive).")
def callkit_srtc():
    T = Trace("srtc", seed=206, model="iPhone15,4", os="iOS 17.5.1", bundle="com.example.oncall")
    T.every(2600, 62000, 2000, steady("excellent", "good"))
    T.rec(2000, "os.callKit", event="answer", callId=CALL_ID)
    T.standard_join(2100, "oncall-escalation")
    T.exp(2200, "finding", rule="I7", code="callkit.activatedBeforeDidActivate", count=1)
    T.activate(2300)
    T.exp(2310, "finding", rule="I7", code="callkit.activatedBeforeDidActivate", count=1)
    T.rec(2450, "os.callKit", event="didActivate", callId=CALL_ID)
    T.activate(2470)
    T.rec(30000, "os.callKit", event="end", callId=CALL_ID)
    T.standard_leave(30050)
    out = "8B0A5C3D-2E41-4F6A-B7C9-0D1E2F3A4B5C"
    T.rec(40000, "os.callKit", event="start", callId=out)
    T.enter(40100, "oncall-followup")
    T.rec(40135, "os.micPermission", status="granted")
    T.exp(45000, "noFinding", rule="I7", code="callkit.noDidActivate")
    T.exp(45001, "finding", rule="I7", code="callkit.noDidActivate", count=1)
    T.rec(52000, "os.callKit", event="end", callId=out)
    T.exit(52050)
    T.exp(62000, "finding", end=True, code="callkit.activatedBeforeDidActivate", count=1)
    T.exp(62000, "finding", end=True, code="callkit.noDidActivate", count=1)
    return T


@trace("smeeting-callkit-activation-race.jsonl",
       "SMeeting with CallKit: a member answers a meeting call and the SDK activates the session before CallKit's "
       "didActivate (callkit.activatedBeforeDidActivate); on the next call the SDK waits for didActivate and nothing "
       "is raised.")
def callkit_smeeting():
    T = Trace("smeeting", seed=207, model="iPhone15,2", os="iOS 17.4")
    T.every(2600, 70000, 2000, steady("good", "excellent"))
    T.rec(1000, "os.callKit", event="answer", callId=CALL_ID)
    T.standard_join(1100, "clinic-triage")
    T.exp(1200, "finding", rule="I7", code="callkit.activatedBeforeDidActivate", count=1)
    T.rec(1400, "os.callKit", event="didActivate", callId=CALL_ID)
    T.rec(30000, "os.callKit", event="end", callId=CALL_ID)
    T.standard_leave(30040)
    second = "A3F94C21-77D0-4B1E-8C6A-5E2D9F0B1C3D"
    T.rec(40000, "os.callKit", event="answer", callId=second)
    T.enter(40080, "clinic-triage-2")
    T.rec(40115, "os.micPermission", status="granted")
    T.rec(40300, "os.callKit", event="didActivate", callId=second)
    T.activate(40320)
    T.route(40340, "receiver", "categoryChange")
    T.rec(60000, "os.callKit", event="end", callId=second)
    T.standard_leave(60040)
    T.exp(70000, "finding", end=True, rule="I7", code="callkit.activatedBeforeDidActivate", count=1)
    T.exp(70000, "noFinding", end=True, code="callkit.noDidActivate")
    return T


@trace("srtc-deferred-call-outcomes.jsonl",
       "SRTC: what became of every deferred call (V2): superseded before joining, a later noop superseding nothing, "
       "ineffective at the join (a headset has the route) and final after the unplug, dropped by a leave during a "
       "cellular call while a deferred default waits for the next join, applied at a recovery, pending at the end.")
def outcomes_srtc():
    T = Trace("srtc", seed=208, model="iPhone13,4", os="iOS 17.1.2")
    T.rec(200, "os.deviceConnected", **EARPODS)
    T.snapshot(220, "headset", ports=["Headphones"])
    s1 = T.set_route(300, "speaker")
    s2 = T.set_route(500, "earpiece")
    T.exp(510, "outcome", rule="V2", ref=s1, outcome="superseded", by=s2)
    T.exp(510, "outcome", rule="V2", ref=s2, outcome="pending")
    s3 = T.set_route(600, "earpiece")
    T.exp(610, "outcome", rule="V2", ref=s3, outcome="noop", by=s3)
    T.exp(610, "outcome", rule="V2", ref=s2, outcome="pending")
    T.every(1500, 19000, 2000, steady("excellent", "good"))
    j = T.standard_join(1000, "dispatch-4", first_route=None)
    T.exp(1100, "outcome", rule="V2", ref=s2, outcome="ineffective", cause="externalRouteActive", by=j)
    T.rec(5000, "os.deviceDisconnected", id=EARPODS["id"])
    T.route(5030, "receiver", "oldDeviceUnavailable")
    T.exp(5100, "route", rule="R5", route="receiver")
    T.exp(5100, "outcome", rule="V2", ref=s2, outcome="ineffective", cause="externalRouteActive", by=j)
    T.rec(8000, "os.callState", state="incoming")
    T.rec(8010, "os.interruptionBegan", cause="systemCall")
    T.rec(8020, "sdk.interrupted")
    s4 = T.set_route(8500, "speaker")
    d1 = T.set_default(8600, "speaker")
    T.exp(8610, "verdict", rule="V1", ref=d1, verdict="deferred", cause="interrupted")
    lv = T.exit(9000)
    T.deactivate(9040)
    T.route(9055, "speaker", "categoryChange")
    T.rec(9060, "conn.state", state="disconnected")
    T.exp(9100, "outcome", rule="V2", ref=s4, outcome="dropped", by=lv)
    T.exp(9100, "outcome", rule="V2", ref=d1, outcome="pending")
    T.rec(12000, "os.callState", state="disconnected")
    T.every(21500, 40000, 2000, steady("good", "good"))
    j2 = T.standard_join(20000, "dispatch-4", options=("defaultToSpeaker", "allowBluetooth", "allowBluetoothA2DP"),
                         first_route="speaker")
    T.exp(20100, "outcome", rule="V2", ref=d1, outcome="applied", by=j2)
    T.rec(25000, "os.interruptionBegan", cause="siri")
    T.rec(25010, "sdk.interrupted")
    s5 = T.set_route(25500, "earpiece")
    en = T.rec(27000, "os.interruptionEnded", shouldResume=True)
    T.activate(27030, options=("defaultToSpeaker", "allowBluetooth", "allowBluetoothA2DP"))
    T.rec(27040, "obs.overrideOutput", port="none")
    T.route(27060, "receiver", "override")
    T.rec(27070, "sdk.recovered")
    T.exp(27100, "outcome", rule="V2", ref=s5, outcome="applied", by=en)
    T.standard_leave(40000)
    s6 = T.set_route(41000, "speaker")
    T.exp(41100, "outcome", end=True, rule="V2", ref=s6, outcome="pending")
    T.exp(41100, "outcome", end=True, rule="V2", ref=s1, outcome="superseded", by=s2)
    T.exp(41100, "divergences", end=True, rule="X2", count=0)
    return T


@trace("srtc-device-limit.jsonl.zst",
       "SRTC: a recorder bug logs every bluetooth advertisement as a new connection: 1,000 devices fill the engine's "
       "limit, the 1,001st (a wired headset) is ignored and trace.limitExceeded is raised once.")
def device_limit_srtc():
    T = Trace("srtc", seed=209, model="iPhone12,8", os="iOS 16.4")
    T.standard_join(1000, "warehouse-floor")
    for i in range(1000):
        mac = "bt-c0:ff:ee:%02x:%02x:%02x" % (i >> 16 & 255, i >> 8 & 255, i & 255)
        T.rec(2000 + 5 * i, "os.deviceConnected", id=mac, kind="bluetooth", name="Beacon %04d" % i, port="BluetoothLE")
    T.exp(7000, "route", rule="R4", route="bluetooth")
    T.exp(7000, "noFinding", code="trace.limitExceeded")
    T.rec(7100, "os.deviceConnected", **EARPODS)
    T.exp(7200, "finding", code="trace.limitExceeded", count=1)
    T.exp(7200, "route", rule="R4", route="bluetooth")
    T.rec(7300, "os.deviceConnected", id="wired-2", kind="headset", name="USB-C Headset", port="USBAudio")
    T.standard_leave(9000)
    T.exp(9100, "finding", end=True, code="trace.limitExceeded", count=1)
    return T


@trace("srtc-redacted-source-speaker-ties.jsonl",
       "SRTC, redacted on the device (header redacted: source): the SDK's snapshots order equal-level speakers by "
       "their original uids, which the tokens do not keep, so that order is ignored; a snapshot out of level order is "
       "still speakers.mismatch.")
def redacted_ties_srtc():
    T = Trace("srtc", seed=210, model="iPhone14,5", os="iOS 17.5.1", bundle="app-5d41402a")
    T.recs[0]["redacted"] = "source"
    T.every(2500, 20000, 2000, steady("excellent", "excellent"))
    T.standard_join(1000, "chan-7c6a180b")
    T.rec(1400, "conn.state", state="connected")
    T.speakers(3000, speaking=[("uid-9f86d081", "trk-2c26b46b", 0.5), ("uid-1b4f0e98", "trk-fcde2b2e", 0.5),
                               ("uid-60303ae2", "trk-4e074085", 0.2)])
    snap = [{"uid": "uid-9f86d081", "trackId": "trk-2c26b46b", "level": 0.5},
            {"uid": "uid-1b4f0e98", "trackId": "trk-fcde2b2e", "level": 0.5},
            {"uid": "uid-60303ae2", "trackId": "trk-4e074085", "level": 0.2}]
    T.rec(3002, "sdk.activeSpeakers", speakers=snap)
    T.exp(3100, "noFinding", rule="S2", code="speakers.mismatch")
    T.rec(5000, "sdk.activeSpeakers", speakers=[snap[2], snap[0], snap[1]])
    T.exp(5100, "finding", rule="S2", code="speakers.mismatch", count=1)
    T.standard_leave(20000)
    return T


@trace("smeeting-speaking-while-disabled.jsonl",
       "SMeeting: the audio module is disabled while nobody speaks (a voice memo plays back); a member starts "
       "speaking meanwhile -> audioModule.disabledWhileSpeaking at that speaker update, once for the disabled period.")
def speaking_while_disabled_smeeting():
    T = Trace("smeeting", seed=211, model="iPhone15,2", os="iOS 17.4")
    T.every(2600, 30000, 2000, steady("excellent", "good"))
    T.standard_join(1000, "book-club")
    T.rec(1500, "conn.state", state="connected")
    T.rec(5000, "api.setAudioModuleEnabled", enabled=False)
    T.exp(5010, "noFinding", rule="R9", code="audioModule.disabledWhileSpeaking")
    T.speakers(7000, speaking=[("m-olu", "mic", 0.6)])
    T.exp(7010, "finding", rule="R9", code="audioModule.disabledWhileSpeaking", count=1)
    T.speakers(8000, speaking=[("m-ines", "mic", 0.4)])
    T.rec(12000, "api.setAudioModuleEnabled", enabled=True)
    T.exp(12010, "route", rule="R9", route="receiver")
    T.standard_leave(30000)
    T.exp(30100, "finding", end=True, code="audioModule.disabledWhileSpeaking", count=1)
    T.exp(30100, "noFinding", end=True, code="audioModule.leftDisabled")
    return T


@trace("smeeting-field-service-10min.jsonl.zst",
       "SMeeting, 10 min (generated by gen/v2_traces.py): speaker on; a media services reset rebuilt at once (I5); a "
       "Siri interruption whose end never arrives, recovered when the app returns to the foreground (I6); the app's "
       "camera component changes the session category (R12) and the SDK re-applies the route 6 s later; reports every "
       "2 s with matching SDK level changes, speaker updates with matching snapshots.")
def field_service_smeeting():
    T = Trace("smeeting", seed=212, model="iPhone15,3", os="iOS 17.5.1", started="2026-11-30T14:00:00Z")
    T.sdk_quality = True
    T.sdk_speakers = True
    segments = [(0, 3 * MIN, "excellent", "good"), (3 * MIN, 5 * MIN, "good", "good"),
                (5 * MIN, 6 * MIN, "good", "poor"), (6 * MIN, 10 * MIN, "excellent", "good")]

    def plan(t):
        if T.conn != "connected":
            return None
        for (a, b, pub, sub) in segments:
            if a <= t < b:
                return (pub, sub)
        return ("good", "good")
    rng = random.Random(12)
    members = [("m-kofi", "mic"), ("m-lena", "mic"), ("m-ravi", "mic")]
    t = 4000
    while t < 9 * MIN + 50000:
        def tick(tt, r=rng.random()):
            if T.conn != "connected":
                return
            if T.spk and (r < 0.4 or len(T.spk) >= 2):
                T.speakers(tt, stopped=[sorted(T.spk)[int(r * 100) % len(T.spk)]])
            else:
                cand = [m for m in members if m not in T.spk]
                if cand:
                    u = cand[int(r * 100) % len(cand)]
                    T.speakers(tt, speaking=[(u[0], u[1], round(0.2 + (r * 9.1) % 0.7, 2))])
        T.at(t, tick)
        t += rng.randint(3000, 9000)
    T.every(3000, 10 * MIN, 2000, plan)
    T.standard_join(1000, "site-7-inspection")
    s = T.set_route(5000, "speaker")
    T.rec(5010, "obs.overrideOutput", port="speaker")
    T.route(5030, "speaker", "override")
    T.exp(5100, "verdict", rule="V1", ref=s, verdict="applied")
    T.rec(2 * MIN + 30000, "os.mediaServicesReset")
    T.exp(2 * MIN + 30100, "interrupted", rule="I5", value=True)
    T.activate(2 * MIN + 30800)
    T.rec(2 * MIN + 30820, "obs.overrideOutput", port="speaker")
    T.rec(2 * MIN + 30830, "sdk.recovered")
    T.exp(2 * MIN + 30900, "interrupted", rule="I5", value=False)
    T.exp(2 * MIN + 30900, "route", rule="I5", route="speaker")
    T.rec(4 * MIN, "os.interruptionBegan", cause="siri")
    T.rec(4 * MIN + 10, "sdk.interrupted")
    T.rec(4 * MIN + 2000, "os.appState", state="background")
    T.exp(4 * MIN + 30000, "interrupted", rule="I1", value=True)
    T.rec(4 * MIN + 40000, "os.appState", state="foreground")
    T.exp(4 * MIN + 40000, "interrupted", rule="I6", value=False)
    T.activate(4 * MIN + 40050)
    T.rec(4 * MIN + 40060, "obs.overrideOutput", port="speaker")
    T.rec(4 * MIN + 40070, "sdk.recovered")
    T.route(7 * MIN, "receiver", "categoryChange")
    T.exp(7 * MIN, "finding", rule="R12", code="session.changedByOtherComponent", count=1)
    T.activate(7 * MIN + 6000)
    T.rec(7 * MIN + 6020, "obs.overrideOutput", port="speaker")
    T.route(7 * MIN + 6040, "speaker", "override")
    T.standard_leave(9 * MIN + 50000)
    end = 10 * MIN
    T.flush(end)
    T.exp(end, "qualityChanges", end=True, rule="Q2", changes=[{"previous": p, "overall": o} for (p, o) in T.changes])
    T.predicted_by(end, 0, "R2", seq=s, applied_by=None, end=True)
    T.exp(end, "divergences", end=True, rule="X3", count=1)
    T.exp(end, "finding", end=True, code="interruption.endNeverArrived", count=1)
    T.exp(end, "finding", end=True, code="session.changedByOtherComponent", count=1)
    for code in ("session.notRebuiltAfterReset", "interruption.notRecovered", "quality.missedChange",
                 "quality.spuriousChange", "speakers.mismatch", "route.ineffective"):
        T.exp(end, "noFinding", end=True, code=code)
    return T


def main():
    for name, _desc, fn in TRACES:
        T = fn()
        T.write(os.path.join(OUT, name[:-len(".zst")] if name.endswith(".zst") else name))
    print("wrote %d version-2 traces" % len(TRACES))


if __name__ == "__main__":
    main()
