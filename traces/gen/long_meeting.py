#!/usr/bin/env python3
"""Deterministic generator of the two long golden traces (Python 3, stdlib only, fixed seeds).

  smeeting-long-meeting-45min.jsonl : a 45-minute SMeeting meeting with two reconnects, bluetooth on/off
                                      (twice), a wired headset, a cellular call, poor-network episodes,
                                      quality reports every 2 s and active-speaker updates.
  srtc-long-call-20min.jsonl        : a ~20-minute SRTC call with a reconnect, a Siri interruption,
                                      a headset, an audio-module pause and a layer switch.

Usage: python3 long_meeting.py [OUTDIR]   (default: the traces/ folder).  build_all.sh compresses them.
The expectations are computed from the scenario with an independent model of the contract
(tracelib: Q1/Q2/Q4 level changes, S1/S2 speaker snapshots); route expectations are scripted.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tracelib import Trace  # noqa: E402

MIN = 60000


def speaker_activity(T, members, t0, t1, seed_rng):
    """Random but deterministic active-speaker updates, only while the transport is connected."""
    rng = seed_rng
    t = t0
    while t < t1:
        def tick(tt, rng_state=rng.random()):
            if T.conn != "connected":
                return
            speaking = list(T.spk)
            r = rng_state
            if speaking and (r < 0.35 or len(speaking) >= 3):
                u = speaking[int(r * 1000) % len(speaking)]
                T.speakers(tt, stopped=[u])
            elif speaking and r < 0.6:
                u = speaking[int(r * 1000) % len(speaking)]
                T.speakers(tt, speaking=[(u[0], u[1], round(0.1 + (r * 7.3) % 0.85, 2))])
            else:
                cand = [m for m in members if m not in T.spk]
                if cand:
                    u = cand[int(r * 1000) % len(cand)]
                    T.speakers(tt, speaking=[(u[0], u[1], round(0.1 + (r * 11.7) % 0.85, 2))])
        T.at(t, tick)
        t += rng.randint(2500, 7000)


def expect_speakers_now(T, t, rule):
    T.flush(t)
    T.exp(t, "speakers", rule=rule, speakers=[{"uid": s["uid"], "trackId": s["trackId"]} for s in T.snapshot_list()])


def expect_changes_now(T, t, rule):
    T.flush(t)
    T.exp(t, "qualityChanges", rule=rule, changes=[{"previous": p, "overall": o} for (p, o) in T.changes])


def plan_fn(T, segments):
    def fn(t):
        if T.conn != "connected":
            return None
        for (a, b, pub, sub) in segments:
            if a <= t < b:
                return (pub, sub)
        return ("good", "excellent")
    return fn


def meeting_45():
    T = Trace("smeeting", seed=4501, model="iPhone15,3", os="iOS 17.5.1", started="2026-11-29T09:00:00Z",
              bundle="com.example.meet")
    T.sdk_quality = True
    T.sdk_speakers = True
    END = 45 * MIN
    segments = [
        (0, 4 * MIN, "excellent", "excellent"),
        (4 * MIN, 9 * MIN, "excellent", "good"),
        (9 * MIN, 10 * MIN, "good", "poor"),          # downlink congestion
        (10 * MIN, 15 * MIN, "excellent", "good"),
        (15 * MIN, 21 * MIN, "good", "good"),
        (21 * MIN, 21 * MIN + 50000, "poor", "good"),  # own uplink poor (Q6: pub)
        (21 * MIN + 50000, 38 * MIN, "excellent", "excellent"),
        (38 * MIN, 40 * MIN, "good", "excellent"),
        (40 * MIN, 40 * MIN + 40000, "lost", "poor"),  # elevator
        (40 * MIN + 40000, END, "excellent", "good"),
    ]
    members = [("m-alice", "mic"), ("m-bjorn", "mic"), ("m-chidi", "mic"), ("m-dana", "mic"),
               ("m-eun", "mic"), ("m-eun", "screen-audio"), ("m-farah", "mic")]
    import random
    speaker_activity(T, members, 3000, 44 * MIN, random.Random(45))
    T.every(3500, 44 * MIN + 30000, 2000, plan_fn(T, segments))

    T.exp(1000, "quality", rule="Q3", value=None)
    T.standard_join(1500, "quarterly-planning", mode="voiceChat")
    T.exp(1700, "route", rule="R8", route="receiver")
    s = T.set_route(5000, "speaker", api="setSpeakerOutputEnabled(true)")
    T.rec(5010, "obs.overrideOutput", port="speaker")
    T.route(5030, "speaker", "override")
    T.exp(5100, "verdict", rule="V1", ref=s, verdict="applied")

    # AirPods on at 6 min; the user taps "earpiece" while they are on; off at 12 min
    airpods = dict(id="bt-7c:04:d0:1a:3f:22", kind="bluetooth", name="AirPods Pro", port="BluetoothHFP")
    T.rec(6 * MIN, "os.deviceConnected", **airpods)
    T.route(6 * MIN + 300, "bluetooth", "newDeviceAvailable")
    T.exp(6 * MIN + 400, "route", rule="R4", route="bluetooth")
    e = T.set_route(8 * MIN, "earpiece", api="setSpeakerOutputEnabled(false)")
    T.log(8 * MIN + 1, "setAudioRoute(.earpiece) not applied: external route bluetooth is active", level="warning")
    T.exp(8 * MIN + 10, "verdict", rule="V1", ref=e, verdict="ineffective", cause="externalRouteActive")
    T.rec(12 * MIN, "os.deviceDisconnected", id=airpods["id"])
    T.rec(12 * MIN + 20, "obs.overrideOutput", port="none")
    T.route(12 * MIN + 40, "receiver", "oldDeviceUnavailable")
    T.exp(12 * MIN + 100, "route", rule="R5", route="receiver")

    # reconnect 1 at 15 min
    expect_changes_now(T, 15 * MIN - 1000, "Q2")
    T.rec(15 * MIN, "conn.state", state="reconnecting")
    T.log(15 * MIN + 1, "signalling transport lost, reconnecting", level="warning")
    T.rec(15 * MIN + 3200, "conn.state", state="connected")
    T.exp(15 * MIN + 3200, "quality", rule="Q4", value=None)
    T.exp(15 * MIN + 3200, "speakers", rule="Q4", speakers=[])

    # wired headset 18..24 min
    wired = dict(id="wired-headset-mic", kind="headset", name="Headset Microphone", port="HeadsetMicrophone")
    T.rec(18 * MIN, "os.deviceConnected", **wired)
    T.route(18 * MIN + 60, "headset", "newDeviceAvailable")
    T.exp(18 * MIN + 100, "route", rule="R4", route="headset")
    T.flush(21 * MIN + 20000)
    T.exp(21 * MIN + 20000, "quality", rule="Q6", overall="poor")
    T.rec(24 * MIN, "os.deviceDisconnected", id=wired["id"])
    T.route(24 * MIN + 50, "receiver", "oldDeviceUnavailable")
    T.exp(24 * MIN + 100, "route", rule="R5", route="receiver")
    expect_speakers_now(T, 25 * MIN, "S2")

    # cellular call 27..28.5 min
    T.rec(27 * MIN, "os.callState", state="incoming")
    T.rec(27 * MIN + 30, "os.interruptionBegan", cause="systemCall")
    T.rec(27 * MIN + 40, "sdk.interrupted")
    T.rec(27 * MIN + 45, "sdk.callStateChanged", state="incoming")
    T.exp(27 * MIN + 100, "interrupted", rule="I1", value=True)
    T.rec(27 * MIN + 4000, "os.callState", state="connected")
    T.rec(27 * MIN + 4010, "sdk.callStateChanged", state="connected")
    T.rec(28 * MIN + 30000, "os.callState", state="disconnected")
    T.rec(28 * MIN + 30010, "sdk.callStateChanged", state="disconnected")
    T.rec(28 * MIN + 30300, "os.interruptionEnded", shouldResume=True)
    T.exp(28 * MIN + 30300, "interrupted", rule="I3", value=False)
    T.activate(28 * MIN + 30340, mode="voiceChat")
    T.route(28 * MIN + 30360, "receiver", "categoryChange")
    T.rec(28 * MIN + 30370, "sdk.recovered")

    # speaker again at 31 min, then Jabra on/off 33..36 min
    s2 = T.set_route(31 * MIN, "speaker", api="setSpeakerOutputEnabled(true)")
    T.rec(31 * MIN + 10, "obs.overrideOutput", port="speaker")
    T.route(31 * MIN + 30, "speaker", "override")
    T.exp(31 * MIN + 100, "verdict", rule="V1", ref=s2, verdict="applied")
    jabra = dict(id="bt-70:bf:92:0e:41:c8", kind="bluetooth", name="Jabra Evolve2 65", port="BluetoothHFP")
    T.rec(33 * MIN, "os.deviceConnected", **jabra)
    T.route(33 * MIN + 450, "bluetooth", "newDeviceAvailable")
    T.rec(36 * MIN, "os.deviceDisconnected", id=jabra["id"])
    T.rec(36 * MIN + 20, "obs.overrideOutput", port="speaker")
    T.route(36 * MIN + 40, "speaker", "oldDeviceUnavailable")
    T.exp(36 * MIN + 100, "route", rule="R5", route="speaker")

    # reconnect 2 at 38 min
    T.rec(38 * MIN + 10000, "conn.state", state="reconnecting")
    T.rec(38 * MIN + 16500, "conn.state", state="connected")
    T.exp(38 * MIN + 16500, "quality", rule="Q4", value=None)
    T.flush(40 * MIN + 20000)
    T.exp(40 * MIN + 20000, "quality", rule="Q1", overall="lost")
    expect_speakers_now(T, 42 * MIN, "S1")

    T.flush(44 * MIN + 30000)
    expect_changes_now(T, 44 * MIN + 30000, "Q2")
    T.standard_leave(44 * MIN + 30000)
    T.rec(END, "sdk.log", level="info", message="meeting session closed")
    T.exp(END, "divergences", end=True, rule="X2", count=0)
    T.exp(END, "finding", end=True, code="route.ineffective", count=1)
    for code in ("quality.missedChange", "quality.spuriousChange", "quality.flapping", "speakers.mismatch",
                 "interruption.notRecovered", "interruption.recoveredWithoutActivation",
                 "audioModule.leftDisabled", "session.missingAllowBluetooth"):
        T.exp(END, "noFinding", end=True, code=code)
    return T


def call_20():
    T = Trace("srtc", seed=2001, model="iPhone14,5", os="iOS 17.5.1", started="2026-11-29T14:30:00Z",
              bundle="com.example.rtcdemo", initial_default="speaker")
    T.sdk_quality = True
    END = 20 * MIN + 5000
    segments = [
        (0, 3 * MIN, "excellent", "good"),
        (3 * MIN, 3 * MIN + 30000, "excellent", "poor"),
        (3 * MIN + 30000, 11 * MIN, "excellent", "excellent"),
        (11 * MIN, 11 * MIN + 24000, "poor", "poor"),
        (11 * MIN + 24000, END, "good", "excellent"),
    ]
    import random
    members = [("u1001", "mic"), ("u1002", "mic"), ("u1003", "mic")]
    speaker_activity(T, members, 4000, 19 * MIN, random.Random(20))
    T.every(3000, 19 * MIN + 50000, 2000, plan_fn(T, segments))
    T.standard_join(1200, "incident-2231", mode="voiceChat",
                    options=("defaultToSpeaker", "allowBluetooth", "allowBluetoothA2DP"), first_route="speaker")
    T.exp(1400, "route", rule="R2", route="speaker")
    T.rec(1800, "api.subscribe", pubUid="u1002", trackId="cam-1002", layers=["cam-1002-h", "cam-1002-l"])
    sw = T.rec(3 * MIN + 5000, "api.switchLayer", pubUid="u1002", trackId="cam-1002", targetTrackId="cam-1002-l")
    T.exp(3 * MIN + 5010, "verdict", rule="L3", ref=sw, verdict="applied")
    T.rec(3 * MIN + 5280, "srv.layerSwitched", pubUid="u1002", trackId="cam-1002", fromTrackId="cam-1002-h",
          toTrackId="cam-1002-l", reason="client", latencyMs=280)
    T.rec(3 * MIN + 5282, "sdk.layerSwitched", pubUid="u1002", trackId="cam-1002", fromTrackId="cam-1002-h",
          toTrackId="cam-1002-l", reason="client", latencyMs=280)
    wired = dict(id="wired-headphones", kind="headset", name="EarPods", port="Headphones")
    T.rec(5 * MIN, "os.deviceConnected", **wired)
    T.route(5 * MIN + 40, "headset", "newDeviceAvailable")
    T.exp(5 * MIN + 100, "route", rule="R4", route="headset")
    T.rec(7 * MIN, "os.interruptionBegan", cause="siri")
    T.rec(7 * MIN + 10, "sdk.interrupted")
    T.exp(7 * MIN + 100, "route", rule="R8", route=None)
    T.rec(7 * MIN + 6000, "os.interruptionEnded", shouldResume=True)
    T.activate(7 * MIN + 6030, mode="voiceChat", options=("defaultToSpeaker", "allowBluetooth", "allowBluetoothA2DP"))
    T.rec(7 * MIN + 6040, "sdk.recovered")
    T.exp(7 * MIN + 6100, "route", rule="I3", route="headset")
    T.rec(9 * MIN, "os.deviceDisconnected", id=wired["id"])
    T.route(9 * MIN + 40, "speaker", "oldDeviceUnavailable")
    T.exp(9 * MIN + 100, "route", rule="R5", route="speaker")
    T.flush(10 * MIN)
    speaking_now = bool(T.spk)   # the model's snapshot at the moment the module is disabled
    T.rec(10 * MIN, "api.setAudioModuleEnabled", enabled=False)
    T.exp(10 * MIN + 10, "route", rule="R8", route=None)
    if speaking_now:
        T.exp(10 * MIN + 10, "finding", code="audioModule.disabledWhileSpeaking", count=1)
    else:
        T.exp(10 * MIN + 10, "noFinding", code="audioModule.disabledWhileSpeaking")
    T.rec(10 * MIN + 45000, "api.setAudioModuleEnabled", enabled=True)
    T.exp(10 * MIN + 45010, "route", rule="R9", route="speaker")
    T.rec(11 * MIN + 30000, "conn.state", state="reconnecting")
    T.rec(11 * MIN + 34500, "conn.state", state="connected")
    T.exp(11 * MIN + 34500, "quality", rule="Q4", value=None)
    T.exp(11 * MIN + 34500, "speakers", rule="Q4", speakers=[])
    e = T.set_route(14 * MIN, "earpiece", api="setAudioRoute(.earpiece)")
    T.rec(14 * MIN + 10, "obs.overrideOutput", port="none")
    T.route(14 * MIN + 30, "receiver", "override")
    T.exp(14 * MIN + 100, "verdict", rule="V1", ref=e, verdict="applied")
    expect_speakers_now(T, 16 * MIN, "S2")
    T.flush(19 * MIN + 50000)
    expect_changes_now(T, 19 * MIN + 50000, "Q4")
    T.standard_leave(20 * MIN)
    T.exp(END, "divergences", end=True, rule="X2", count=0)
    T.exp(END, "finding" if speaking_now else "noFinding", end=True, code="audioModule.disabledWhileSpeaking",
          **({"count": 1} if speaking_now else {}))
    for code in ("quality.missedChange", "quality.spuriousChange", "audioModule.leftDisabled",
                 "layer.switchNotConfirmed", "interruption.notRecovered", "route.ineffective"):
        T.exp(END, "noFinding", end=True, code=code)
    return T


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    meeting_45().write(os.path.join(out, "smeeting-long-meeting-45min.jsonl"))
    call_20().write(os.path.join(out, "srtc-long-call-20min.jsonl"))


if __name__ == "__main__":
    main()
