#!/usr/bin/env python3
"""Writes the hand-designed golden traces of rtctrace into traces/ (deterministic).

Every trace is a realistic session; its expect.* records pin contract rules (rule ids in
"rule") and finding codes.  Run:  python3 traces/gen/make_traces.py
The long sessions are written by long_meeting.py.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tracelib import Trace  # noqa: E402

OUT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TRACES = []  # (file name, description, function)


def trace(name, desc):
    def deco(fn):
        TRACES.append((name, desc, fn))
        return fn
    return deco


def steady(pub="excellent", sub="good"):
    return lambda t: (pub, sub)


AIRPODS = dict(id="bt-7c:04:d0:1a:3f:22", kind="bluetooth", name="AirPods Pro", port="BluetoothHFP")
JABRA = dict(id="bt-70:bf:92:0e:41:c8", kind="bluetooth", name="Jabra Evolve2 65", port="BluetoothHFP")
EARPODS = dict(id="wired-headphones", kind="headset", name="EarPods", port="Headphones")
HEADSET_MIC = dict(id="wired-headset-mic", kind="headset", name="Headset Microphone", port="HeadsetMicrophone")


# ---------------------------------------------------------------------------
# 1. "set but didn't take effect": external devices
# ---------------------------------------------------------------------------
@trace("srtc-bluetooth-blocks-speaker.jsonl",
       "SRTC: AirPods connect mid-call; the user taps the speaker button (setSpeakerOutputPreferred(true)) "
       "-> ineffective/externalRouteActive, audio stays on bluetooth; unplugging falls back to the override (speaker).")
def bt_blocks_speaker_srtc():
    T = Trace("srtc", seed=11, model="iPhone14,5", os="iOS 17.5.1")
    T.every(3000, 30000, 2000, steady("excellent", "good"))
    j = T.standard_join(1000, "support-7781")
    T.exp(1200, "engaged", rule="R6", value=True)
    T.exp(1200, "route", rule="R8", route="receiver")
    T.exp(1200, "target", rule="R2", target="earpiece")
    T.rec(4200, "os.deviceConnected", **AIRPODS)
    T.route(4260, "bluetooth", "newDeviceAvailable")
    T.exp(4300, "route", rule="R4", route="bluetooth")
    T.exp(4300, "target", rule="R1", target="earpiece")
    s = T.set_route(9000, "speaker", api="setSpeakerOutputPreferred(true)")
    T.log(9002, "setAudioRoute(.speaker) not applied: external route bluetooth is active", level="warning")
    T.exp(9010, "verdict", rule="V1", ref=s, verdict="ineffective", cause="externalRouteActive")
    T.exp(9010, "override", rule="R3", target="speaker")
    T.exp(9010, "route", rule="R4", route="bluetooth")
    T.snapshot(9400, "bluetooth", ports=["BluetoothHFP"])
    T.exp(9500, "finding", code="route.ineffective", count=1)
    T.rec(16000, "os.deviceDisconnected", id=AIRPODS["id"])
    T.rec(16020, "obs.overrideOutput", port="speaker")
    T.route(16040, "speaker", "oldDeviceUnavailable")
    T.exp(16100, "route", rule="R5", route="speaker")
    T.exp(16100, "override", rule="R5", target="speaker")
    T.standard_leave(30000)
    T.exp(30200, "engaged", rule="R6", value=False)
    T.exp(30200, "override", rule="R6", target=None)
    T.exp(30200, "target", rule="R6", target="earpiece")
    T.exp(30200, "divergences", rule="X2", end=True, count=0)
    T.exp(30200, "noFinding", end=True, code="route.divergence")
    T.exp(30200, "finding", end=True, code="route.ineffective", count=1)
    return T


@trace("smeeting-bluetooth-blocks-speaker.jsonl",
       "SMeeting: member enters with AirPods already connected; setAudioRoute(.speaker) is ineffective/externalRouteActive; "
       "after the AirPods are removed the override applies (speaker), then setSpeakerOutputEnabled(false) is applied.")
def bt_blocks_speaker_smeeting():
    T = Trace("smeeting", seed=12, model="iPhone15,3", os="iOS 17.4")
    T.rec(300, "os.deviceConnected", **AIRPODS)
    T.snapshot(320, "bluetooth", ports=["BluetoothA2DPOutput"])
    T.exp(400, "route", rule="R8", route="bluetooth")
    T.every(2600, 42000, 2000, steady("good", "excellent"))
    T.standard_join(1500, "weekly-sync-204", first_route=None)
    T.route(1580, "bluetooth", "categoryChange")  # A2DP -> HFP, still bluetooth
    T.exp(1700, "route", rule="R4", route="bluetooth")
    s1 = T.set_route(6000, "speaker", api="setAudioRoute(.speaker)")
    T.log(6001, "setAudioRoute(.speaker) not applied: external route bluetooth is active", level="warning")
    T.exp(6010, "verdict", rule="V1", ref=s1, verdict="ineffective", cause="externalRouteActive")
    T.exp(6010, "route", rule="R4", route="bluetooth")
    T.rec(21000, "os.deviceDisconnected", id=AIRPODS["id"])
    T.rec(21030, "obs.overrideOutput", port="speaker")
    T.route(21050, "speaker", "oldDeviceUnavailable")
    T.exp(21100, "route", rule="R5", route="speaker")
    s2 = T.set_route(30000, "earpiece", api="setSpeakerOutputEnabled(false)")
    T.rec(30010, "obs.overrideOutput", port="none")
    T.route(30030, "receiver", "override")
    T.exp(30100, "verdict", rule="V1", ref=s2, verdict="applied")
    T.exp(30100, "route", rule="R8", route="receiver")
    T.standard_leave(42000)
    T.exp(42100, "finding", end=True, code="route.ineffective", count=1)
    T.exp(42100, "divergences", end=True, rule="X2", count=0)
    return T


@trace("srtc-wired-headset-blocks-speaker.jsonl",
       "SRTC: wired headset plugged in, speaker request ineffective/externalRouteActive; a bluetooth headset then wins "
       "(most recent); unplugging it falls back to the headset, unplugging the headset to the speaker override.")
def headset_blocks_speaker_srtc():
    T = Trace("srtc", seed=13, model="iPhone12,1", os="iOS 16.7.8")
    T.every(2500, 60000, 2000, steady("excellent", "excellent"))
    T.standard_join(800, "field-ops-12")
    T.rec(5000, "os.deviceConnected", **EARPODS)
    T.route(5030, "headset", "newDeviceAvailable")
    T.exp(5100, "route", rule="R4", route="headset")
    s = T.set_route(8000, "speaker", api="setAudioRoute(.speaker)")
    T.log(8001, "setAudioRoute(.speaker) not applied: external route headset is active", level="warning")
    T.exp(8010, "verdict", rule="V1", ref=s, verdict="ineffective", cause="externalRouteActive")
    T.exp(8010, "route", rule="R4", route="headset")
    T.rec(20000, "os.deviceConnected", **JABRA)
    T.route(20400, "bluetooth", "newDeviceAvailable")
    T.exp(20500, "route", rule="R4", route="bluetooth")
    T.rec(33000, "os.deviceDisconnected", id=JABRA["id"])
    T.route(33050, "headset", "oldDeviceUnavailable")
    T.exp(33100, "route", rule="R5", route="headset")
    T.rec(45000, "os.deviceDisconnected", id=EARPODS["id"])
    T.rec(45020, "obs.overrideOutput", port="speaker")
    T.route(45040, "speaker", "oldDeviceUnavailable")
    T.exp(45100, "route", rule="R5", route="speaker")
    T.standard_leave(60000)
    T.exp(60100, "finding", end=True, code="route.ineffective", count=1)
    T.exp(60100, "divergences", end=True, rule="X2", count=0)
    return T


@trace("smeeting-headset-blocks-default-speaker.jsonl",
       "SMeeting: member enters with a wired headset; defaultAudioRoute = .speaker is ineffective/externalRouteActive; "
       "unplugging falls back to the new default (speaker).")
def headset_default_smeeting():
    T = Trace("smeeting", seed=14, model="iPhone13,2", os="iOS 17.2")
    T.rec(200, "os.deviceConnected", **HEADSET_MIC)
    T.snapshot(210, "headset", ports=["HeadsetMicrophone", "Headphones"])
    T.every(3000, 40000, 2000, steady("good", "good"))
    T.standard_join(1200, "design-review", first_route=None)
    T.exp(1400, "route", rule="R4", route="headset")
    s = T.set_default(7000, "speaker")
    T.exp(7010, "verdict", rule="V1", ref=s, verdict="ineffective", cause="externalRouteActive")
    T.exp(7010, "target", rule="R3", target="speaker")
    T.exp(7010, "route", rule="R4", route="headset")
    T.rec(25000, "os.deviceDisconnected", id=HEADSET_MIC["id"])
    T.rec(25020, "obs.overrideOutput", port="speaker")
    T.route(25040, "speaker", "oldDeviceUnavailable")
    T.exp(25100, "route", rule="R5", route="speaker")
    T.exp(25100, "override", rule="R5", target=None)
    T.standard_leave(40000)
    T.exp(40100, "target", rule="R6", target="speaker")
    T.exp(40100, "finding", end=True, code="route.ineffective", count=1)
    T.exp(40100, "divergences", end=True, rule="X2", count=0)
    return T


# ---------------------------------------------------------------------------
# 1b. not yet joined / entered
# ---------------------------------------------------------------------------
@trace("srtc-setroute-before-join.jsonl",
       "SRTC: setAudioRoute(.speaker) before joinChannel is deferred/notEngaged and applied when the channel is joined; "
       "leaving drops the override and keeps the default.")
def setroute_before_join():
    T = Trace("srtc", seed=21, model="iPhone14,2", os="iOS 17.3")
    s = T.set_route(500, "speaker", api="setAudioRoute(.speaker)")
    T.exp(510, "verdict", rule="R6", ref=s, verdict="deferred", cause="notEngaged")
    T.exp(510, "override", rule="R3", target="speaker")
    T.exp(510, "engaged", rule="R6", value=False)
    T.exp(510, "route", rule="R8", route="speaker")
    T.every(2600, 30000, 2000, steady("excellent", "good"))
    T.standard_join(2000, "lobby-3", first_route=None)
    T.route(2062, "receiver", "categoryChange")
    T.rec(2070, "obs.overrideOutput", port="speaker")
    T.route(2090, "speaker", "override")
    T.exp(2200, "route", rule="R6", route="speaker")
    T.exp(2200, "target", rule="R2", target="speaker")
    T.exp(2200, "finding", code="route.ineffective", count=1)
    s2 = T.set_route(12000, "earpiece", api="setAudioRoute(.earpiece)")
    T.rec(12010, "obs.overrideOutput", port="none")
    T.route(12030, "receiver", "override")
    T.exp(12100, "verdict", rule="V1", ref=s2, verdict="applied")
    T.standard_leave(30000)
    T.exp(30100, "override", rule="R6", target=None)
    T.exp(30100, "target", rule="R6", target="earpiece")
    T.exp(30100, "route", rule="R8", route="speaker")
    T.exp(30100, "divergences", end=True, rule="X2", count=0)
    return T


@trace("smeeting-route-before-enter.jsonl",
       "SMeeting: defaultAudioRoute = .speaker and setAudioRoute(.earpiece) before enterMeeting are both deferred/notEngaged, "
       "applied at enter (receiver); clearAudioRouteOverride applies the default; exit keeps the default for the next meeting.")
def route_before_enter():
    T = Trace("smeeting", seed=22, model="iPhone15,2", os="iOS 17.4")
    d = T.set_default(400, "speaker")
    o = T.set_route(450, "earpiece", api="setAudioRoute(.earpiece)")
    T.exp(460, "verdict", rule="R6", ref=d, verdict="deferred", cause="notEngaged")
    T.exp(460, "verdict", rule="R6", ref=o, verdict="deferred", cause="notEngaged")
    T.exp(460, "target", rule="R2", target="earpiece")
    T.every(2700, 26000, 2000, steady("excellent", "excellent"))
    e = T.standard_join(1500, "all-hands", options=("defaultToSpeaker", "allowBluetooth", "allowBluetoothA2DP"),
                        mode="voiceChat", first_route=None)
    T.route(1570, "speaker", "categoryChange")
    T.rec(1580, "obs.overrideOutput", port="none")
    T.route(1600, "receiver", "override")
    T.exp(1700, "route", rule="R6", route="receiver")
    T.exp(1700, "outcome", rule="V2", ref=d, outcome="ineffective", cause="overrideActive", by=e)
    T.exp(1700, "outcome", rule="V2", ref=o, outcome="applied", by=e)
    c = T.rec(9000, "api.clearRouteOverride")
    T.rec(9010, "obs.overrideOutput", port="speaker")
    T.route(9030, "speaker", "override")
    T.exp(9100, "verdict", rule="R3", ref=c, verdict="applied")
    T.exp(9100, "target", rule="R2", target="speaker")
    T.standard_leave(26000)
    T.exp(26100, "target", rule="R6", target="speaker")
    T.every(30000, 52000, 2000, steady("good", "excellent"))
    T.standard_join(29000, "all-hands-followup", options=("defaultToSpeaker", "allowBluetooth", "allowBluetoothA2DP"),
                    mode="videoChat", first_route="speaker")
    T.exp(29200, "route", rule="R2", route="speaker")
    T.standard_leave(52000)
    T.exp(52100, "finding", end=True, code="route.ineffective", count=2)
    T.exp(52100, "noFinding", end=True, code="session.missingDefaultToSpeaker")
    T.exp(52100, "noFinding", end=True, code="session.wrongMode")
    T.exp(52100, "divergences", end=True, rule="X2", count=0)
    return T


# ---------------------------------------------------------------------------
# 1c. microphone denied
# ---------------------------------------------------------------------------
@trace("srtc-mic-denied-earpiece.jsonl",
       "SRTC: microphone denied at join -> playback-only; setSpeakerOutputPreferred(false) is ineffective/micDenied "
       "(route stays speaker); the speaker request afterwards is a noop.")
def mic_denied_srtc():
    T = Trace("srtc", seed=31, model="iPhone13,4", os="iOS 17.1")
    T.every(2600, 24000, 2000, steady("excellent", "good"))
    T.standard_join(1000, "webinar-88", mic="denied", first_route=None)
    T.log(1065, "microphone permission denied: playback-only mode", level="warning")
    T.route(1080, "speaker", "categoryChange")
    T.exp(1200, "route", rule="R7", route="speaker")
    T.exp(1200, "target", rule="R2", target="earpiece")
    s = T.set_route(6000, "earpiece", api="setSpeakerOutputPreferred(false)")
    T.exp(6010, "verdict", rule="R7", ref=s, verdict="ineffective", cause="micDenied")
    T.exp(6010, "route", rule="R7", route="speaker")
    s2 = T.set_route(9000, "speaker", api="setSpeakerOutputPreferred(true)")
    T.exp(9010, "verdict", rule="V1", ref=s2, verdict="noop")
    T.standard_leave(24000)
    T.exp(24100, "finding", end=True, code="route.ineffective", count=1)
    T.exp(24100, "divergences", end=True, rule="X2", count=0)
    return T


@trace("smeeting-mic-denied-playback-only.jsonl",
       "SMeeting: microphone already denied before entering; setting the unchanged default is a noop, "
       "setAudioRoute(.earpiece) is ineffective/micDenied, audio stays on the speaker.")
def mic_denied_smeeting():
    T = Trace("smeeting", seed=32, model="iPhone14,7", os="iOS 17.0.3")
    T.rec(150, "os.micPermission", status="denied")
    T.every(2800, 30000, 2000, steady("good", "good"))
    n = T.set_default(600, "earpiece")
    T.exp(610, "verdict", rule="V1", ref=n, verdict="noop")
    T.standard_join(1300, "town-hall-q3", mic=None, first_route=None)
    T.route(1380, "speaker", "categoryChange")
    T.exp(1500, "route", rule="R7", route="speaker")
    s = T.set_route(7000, "earpiece", api="setAudioRoute(.earpiece)")
    T.exp(7010, "verdict", rule="R7", ref=s, verdict="ineffective", cause="micDenied")
    T.exp(7010, "route", rule="R8", route="speaker")
    T.snapshot(7500, "speaker", ports=["Speaker"])
    T.standard_leave(30000)
    T.exp(30100, "finding", end=True, code="route.ineffective", count=1)
    T.exp(30100, "divergences", end=True, rule="X2", count=0)
    return T


# ---------------------------------------------------------------------------
# 1d. simulator
# ---------------------------------------------------------------------------
@trace("srtc-simulator-earpiece.jsonl",
       "SRTC on the iOS Simulator: no earpiece; setAudioRoute(.earpiece) ineffective/simulator, a default change under "
       "the override ineffective/overrideActive, clearing it a noop; device.simulator finding.")
def simulator_srtc():
    T = Trace("srtc", seed=41, model="arm64", os="iOS 17.4", simulator=True)
    T.every(2600, 20000, 2000, steady("excellent", "excellent"))
    T.standard_join(1000, "dev-test", first_route="speaker")
    T.exp(1200, "route", rule="R10", route="speaker")
    T.exp(1200, "finding", rule="R10", code="device.simulator")
    s = T.set_route(5000, "earpiece", api="setAudioRoute(.earpiece)")
    T.exp(5010, "verdict", rule="R10", ref=s, verdict="ineffective", cause="simulator")
    T.exp(5010, "route", rule="R10", route="speaker")
    d = T.set_default(8000, "speaker")
    T.exp(8010, "verdict", rule="V1", ref=d, verdict="ineffective", cause="overrideActive")
    c = T.rec(11000, "api.clearRouteOverride")
    T.exp(11010, "verdict", rule="V1", ref=c, verdict="noop")
    T.exp(11010, "target", rule="R3", target="speaker")
    T.standard_leave(20000)
    T.exp(20100, "finding", end=True, code="route.ineffective", count=2)
    T.exp(20100, "divergences", end=True, rule="X2", count=0)
    return T


@trace("smeeting-simulator-earpiece.jsonl",
       "SMeeting on the iOS Simulator with the microphone prompt denied: setSpeakerOutputEnabled(false) is "
       "ineffective/simulator (simulator is checked before micDenied), the route stays speaker; device.simulator finding.")
def simulator_smeeting():
    T = Trace("smeeting", seed=42, model="x86_64", os="iOS 16.4", simulator=True)
    T.every(2500, 18000, 2000, steady("good", "excellent"))
    T.standard_join(900, "ui-test-room", mic="denied", first_route="speaker")
    s = T.set_route(4000, "earpiece", api="setSpeakerOutputEnabled(false)")
    T.exp(4010, "verdict", rule="R10", ref=s, verdict="ineffective", cause="simulator")
    T.exp(4010, "target", rule="R2", target="earpiece")
    T.exp(4010, "route", rule="R10", route="speaker")
    T.standard_leave(18000)
    T.exp(18100, "finding", end=True, rule="R10", code="device.simulator")
    T.exp(18100, "finding", end=True, code="route.ineffective", count=1)
    return T


# ---------------------------------------------------------------------------
# 1e. override shadowing a default
# ---------------------------------------------------------------------------
@trace("srtc-override-shadows-default.jsonl",
       "SRTC: the user picks the handset (override earpiece); the app then sets defaultAudioRoute .speaker for video -> "
       "ineffective/overrideActive; clearAudioRouteOverride applies the default; a second clear is a noop.")
def override_shadows_srtc():
    T = Trace("srtc", seed=51, model="iPhone15,4", os="iOS 17.5")
    T.every(2500, 40000, 2000, steady("excellent", "good"))
    T.standard_join(1000, "consult-5521")
    a = T.set_route(5000, "speaker", api="setAudioRoute(.speaker)")
    T.rec(5010, "obs.overrideOutput", port="speaker")
    T.route(5030, "speaker", "override")
    T.exp(5100, "verdict", rule="V1", ref=a, verdict="applied")
    b = T.set_route(9000, "earpiece", api="setAudioRoute(.earpiece)")
    T.rec(9010, "obs.overrideOutput", port="none")
    T.route(9030, "receiver", "override")
    T.exp(9100, "verdict", rule="V1", ref=b, verdict="applied")
    d = T.set_default(15000, "speaker")
    T.log(15001, "defaultAudioRoute changed to speaker; temporary override earpiece still in effect")
    T.exp(15010, "verdict", rule="V1", ref=d, verdict="ineffective", cause="overrideActive")
    T.exp(15010, "target", rule="R2", target="earpiece")
    T.exp(15010, "route", rule="R2", route="receiver")
    c = T.rec(21000, "api.clearRouteOverride")
    T.rec(21010, "obs.overrideOutput", port="speaker")
    T.route(21030, "speaker", "override")
    T.exp(21100, "verdict", rule="R3", ref=c, verdict="applied")
    T.exp(21100, "target", rule="R2", target="speaker")
    T.exp(21100, "override", rule="R3", target=None)
    c2 = T.rec(26000, "api.clearRouteOverride")
    T.exp(26010, "verdict", rule="V1", ref=c2, verdict="noop")
    T.standard_leave(40000)
    T.exp(40100, "finding", end=True, code="route.ineffective", count=1)
    T.exp(40100, "divergences", end=True, rule="X2", count=0)
    return T


@trace("smeeting-override-shadows-default.jsonl",
       "SMeeting: setSpeakerOutputEnabled(true) sets an override; defaultAudioRoute = .earpiece while it is set is "
       "ineffective/overrideActive; exitMeeting drops the override and the next meeting uses the earpiece default.")
def override_shadows_smeeting():
    T = Trace("smeeting", seed=52, model="iPhone14,3", os="iOS 17.4.1", initial_default="speaker")
    T.every(2400, 30000, 2000, steady("good", "good"))
    T.standard_join(1000, "sales-standup", options=("defaultToSpeaker", "allowBluetooth", "allowBluetoothA2DP"),
                    mode="videoChat", first_route="speaker")
    T.exp(1200, "route", rule="R2", route="speaker")
    o = T.set_route(6000, "speaker", api="setSpeakerOutputEnabled(true)")
    T.exp(6010, "verdict", rule="V1", ref=o, verdict="noop")
    T.exp(6010, "override", rule="R3", target="speaker")
    d = T.set_default(12000, "earpiece")
    T.exp(12010, "verdict", rule="V1", ref=d, verdict="ineffective", cause="overrideActive")
    T.exp(12010, "route", rule="R2", route="speaker")
    T.standard_leave(30000)
    T.exp(30100, "override", rule="R6", target=None)
    T.exp(30100, "target", rule="R6", target="earpiece")
    T.every(33500, 50000, 2000, steady("good", "excellent"))
    T.standard_join(33000, "sales-standup-2", mode="voiceChat", first_route="receiver")
    T.exp(33200, "route", rule="R8", route="receiver")
    T.standard_leave(50000)
    T.exp(50100, "finding", end=True, code="route.ineffective", count=1)
    T.exp(50100, "noFinding", end=True, code="session.missingDefaultToSpeaker")
    T.exp(50100, "divergences", end=True, rule="X2", count=0)
    return T


# ---------------------------------------------------------------------------
# 1f. interrupted: deferred, applied at recovery
# ---------------------------------------------------------------------------
@trace("srtc-interrupted-setroute-deferred.jsonl",
       "SRTC: an incoming cellular call interrupts; the user taps speaker during the ringing -> deferred/interrupted; "
       "the call is declined, interruptionEnded recovers at once and the speaker override is applied.")
def interrupted_deferred_srtc():
    T = Trace("srtc", seed=61, model="iPhone14,5", os="iOS 17.5.1")
    T.every(2500, 40000, 2000, steady("excellent", "good"))
    T.standard_join(1000, "family-call")
    T.rec(10000, "os.callState", state="incoming")
    T.rec(10030, "os.interruptionBegan", cause="systemCall")
    T.rec(10040, "sdk.interrupted")
    T.rec(10045, "sdk.callStateChanged", state="incoming")
    T.exp(10100, "interrupted", rule="I1", value=True)
    T.exp(10100, "route", rule="R8", route=None)
    s = T.set_route(12000, "speaker", api="setAudioRoute(.speaker)")
    T.exp(12010, "verdict", rule="V1", ref=s, verdict="deferred", cause="interrupted")
    T.exp(12010, "route", rule="R8", route=None)
    T.rec(15000, "os.callState", state="disconnected")
    T.rec(15010, "sdk.callStateChanged", state="disconnected")
    T.rec(15300, "os.interruptionEnded", shouldResume=True)
    T.exp(15300, "interrupted", rule="I3", value=False)
    T.exp(15300, "route", rule="I3", route="speaker")
    T.activate(15340)
    T.rec(15350, "obs.overrideOutput", port="speaker")
    T.route(15370, "speaker", "override")
    T.rec(15380, "sdk.recovered")
    T.standard_leave(40000)
    T.exp(40100, "finding", end=True, code="route.ineffective", count=1)
    T.exp(40100, "noFinding", end=True, code="interruption.notRecovered")
    T.exp(40100, "noFinding", end=True, code="interruption.recoveredWithoutActivation")
    T.exp(40100, "divergences", end=True, rule="X2", count=0)
    return T


@trace("smeeting-interrupted-setroute-deferred.jsonl",
       "SMeeting: a Clock alarm interrupts the meeting; setSpeakerOutputEnabled(true) while it rings is deferred/interrupted "
       "and applied when the interruption ends (recovered callback once).")
def interrupted_deferred_smeeting():
    T = Trace("smeeting", seed=62, model="iPhone13,2", os="iOS 17.2")
    T.every(2500, 36000, 2000, steady("good", "excellent"))
    T.standard_join(1000, "book-club")
    T.rec(8000, "os.interruptionBegan", cause="otherApp")
    T.rec(8010, "sdk.interrupted")
    T.exp(8100, "interrupted", rule="I1", value=True)
    s = T.set_route(9500, "speaker", api="setSpeakerOutputEnabled(true)")
    T.exp(9510, "verdict", rule="V1", ref=s, verdict="deferred", cause="interrupted")
    T.exp(9510, "override", rule="R3", target="speaker")
    T.rec(14000, "os.interruptionEnded", shouldResume=True)
    T.activate(14030)
    T.rec(14040, "obs.overrideOutput", port="speaker")
    T.route(14060, "speaker", "override")
    T.rec(14070, "sdk.recovered")
    T.exp(14100, "interrupted", rule="I3", value=False)
    T.exp(14100, "route", rule="I3", route="speaker")
    T.standard_leave(36000)
    T.exp(36100, "finding", end=True, code="route.ineffective", count=1)
    T.exp(36100, "noFinding", end=True, code="interruption.notRecovered")
    T.exp(36100, "divergences", end=True, rule="X2", count=0)
    return T


# ---------------------------------------------------------------------------
# 2. divergences
# ---------------------------------------------------------------------------
@trace("srtc-speaker-stays-on-receiver.jsonl",
       "SRTC: setAudioRoute(.speaker) is applied but the device keeps playing from the receiver for 6 s "
       "(routeSnapshot says receiver) -> one UNEXPLAINED divergence (route.divergence).")
def speaker_stays_receiver_srtc():
    T = Trace("srtc", seed=71, model="iPhone12,3", os="iOS 16.6")
    T.every(2500, 30000, 2000, steady("excellent", "good"))
    T.standard_join(1000, "doctor-visit-9")
    s = T.set_route(6000, "speaker", api="setSpeakerOutputPreferred(true)")
    T.rec(6010, "obs.overrideOutput", port="speaker")
    T.exp(6020, "verdict", rule="X3", ref=s, verdict="applied")
    T.exp(6020, "route", rule="X1", route="speaker")
    T.snapshot(6400, "receiver", ports=["Receiver"])
    T.exp(6450, "divergences", rule="X2", count=0)
    T.snapshot(8000, "receiver", ports=["Receiver"])
    T.exp(8000, "divergences", rule="X2", count=1)
    T.snapshot(10000, "receiver", ports=["Receiver"])
    T.route(12100, "speaker", "override")
    T.exp(12200, "divergences", rule="X2", count=1)
    T.standard_leave(30000)
    T.exp(30100, "divergences", end=True, rule="X3", count=1)
    T.exp(30100, "finding", end=True, rule="X3", code="route.divergence", count=1)
    T.exp(30100, "noFinding", end=True, code="route.ineffective")
    T.exp(30100, "noFinding", end=True, code="session.missingAllowBluetooth")
    return T


@trace("smeeting-override-lost-after-unplug.jsonl",
       "SMeeting: speaker override set, AirPods connect then disconnect; the SDK does not re-apply the override and the "
       "device plays from the receiver for ~7 s -> one UNEXPLAINED divergence.")
def override_lost_smeeting():
    T = Trace("smeeting", seed=72, model="iPhone15,2", os="iOS 17.4")
    T.every(2500, 36000, 2000, steady("good", "good"))
    T.standard_join(1000, "recruiting-panel")
    s = T.set_route(4000, "speaker", api="setAudioRoute(.speaker)")
    T.rec(4010, "obs.overrideOutput", port="speaker")
    T.route(4030, "speaker", "override")
    T.exp(4100, "verdict", rule="V1", ref=s, verdict="applied")
    T.rec(9000, "os.deviceConnected", **AIRPODS)
    T.route(9200, "bluetooth", "newDeviceAvailable")
    T.rec(17000, "os.deviceDisconnected", id=AIRPODS["id"])
    T.route(17050, "receiver", "oldDeviceUnavailable")
    T.exp(17100, "route", rule="R5", route="speaker")
    T.snapshot(19000, "receiver", ports=["Receiver"])
    T.exp(19000, "divergences", rule="X2", count=1)
    T.rec(24000, "obs.overrideOutput", port="speaker")
    T.route(24020, "speaker", "override")
    T.standard_leave(36000)
    T.exp(36100, "divergences", end=True, rule="X3", count=1)
    T.exp(36100, "finding", end=True, code="route.divergence", count=1)
    return T


@trace("srtc-bluetooth-without-allowbluetooth.jsonl",
       "SRTC: the session is activated in mode default without allowBluetooth (no chat mode implies it); the AirPods "
       "connect but audio stays on the receiver -> session.missingAllowBluetooth (and wrongMode) and an EXPLAINED divergence.")
def bt_without_allow_srtc():
    T = Trace("srtc", seed=73, model="iPhone14,4", os="iOS 17.3.1")
    T.every(2500, 30000, 2000, steady("excellent", "excellent"))
    T.standard_join(1000, "sprint-retro", options=(), mode="default")
    T.exp(1200, "finding", code="session.missingAllowBluetooth", count=1)
    T.exp(1200, "finding", code="session.wrongMode", count=1)
    T.rec(6000, "os.deviceConnected", **dict(AIRPODS, port="BluetoothA2DPOutput"))
    T.exp(6100, "route", rule="R4", route="bluetooth")
    T.snapshot(7000, "receiver", ports=["Receiver"])
    T.exp(7000, "divergences", rule="X2", count=1)
    T.snapshot(15000, "receiver", ports=["Receiver"])
    T.rec(20000, "os.deviceDisconnected", id=AIRPODS["id"])
    T.exp(20100, "route", rule="R5", route="receiver")
    T.standard_leave(30000)
    T.exp(30100, "divergences", end=True, rule="X3", count=1)
    T.exp(30100, "finding", end=True, rule="X3", code="route.divergence", count=1)
    T.exp(30100, "finding", end=True, code="session.missingAllowBluetooth", count=1)
    return T


@trace("smeeting-bluetooth-without-allowbluetooth.jsonl",
       "SMeeting (speaker default): session activated in videoChat with defaultToSpeaker but without allowBluetooth, "
       "which videoChat implies (R11); the car kit connects and audio stays on the speaker -> no "
       "session.missingAllowBluetooth, and an UNEXPLAINED divergence.")
def bt_without_allow_smeeting():
    T = Trace("smeeting", seed=74, model="iPhone15,3", os="iOS 17.5", initial_default="speaker")
    T.every(2500, 34000, 2000, steady("good", "excellent"))
    T.standard_join(1000, "commute-briefing", options=("defaultToSpeaker",), mode="videoChat", first_route="speaker")
    T.exp(1200, "noFinding", code="session.missingDefaultToSpeaker")
    car = dict(id="bt-00:1e:7c:55:a0:19", kind="bluetooth", name="CarPlay Audio", port="BluetoothHFP")
    c = T.rec(9000, "os.deviceConnected", **car)
    T.snapshot(9800, "speaker", ports=["Speaker"])
    T.exp(9800, "divergences", rule="X2", count=1)
    T.exp(9800, "route", rule="R4", route="bluetooth")
    T.rec(25000, "os.deviceDisconnected", id=car["id"])
    T.standard_leave(34000)
    T.exp(34100, "divergences", end=True, rule="X2", count=1)
    T.exp(34100, "noFinding", end=True, rule="R11", code="session.missingAllowBluetooth")
    T.predicted_by(34100, 0, "R4", seq=c, applied_by=None, end=True)
    T.exp(34100, "finding", end=True, code="route.divergence", count=1)
    return T


# ---------------------------------------------------------------------------
# 3. interruptions and system calls
# ---------------------------------------------------------------------------
@trace("srtc-call-interruption-ended-while-connected.jsonl",
       "SRTC: a cellular call is answered; interruptionEnded arrives while the call is still connected (no recovery, I2); "
       "the call hangs up and recovery happens exactly D=2000 ms after callState disconnected (I3).")
def call_ended_while_connected():
    T = Trace("srtc", seed=81, model="iPhone14,2", os="iOS 17.4.1")
    T.every(2500, 80000, 2000, steady("excellent", "good"))
    T.standard_join(1000, "night-shift-handover")
    T.rec(20000, "os.callState", state="incoming")
    T.rec(20040, "os.interruptionBegan", cause="systemCall")
    T.rec(20050, "sdk.interrupted")
    T.rec(20055, "sdk.callStateChanged", state="incoming")
    T.exp(20100, "interrupted", rule="I1", value=True)
    T.rec(24000, "os.callState", state="connected")
    T.rec(24010, "sdk.callStateChanged", state="connected")
    T.rec(30000, "os.interruptionEnded", shouldResume=True)
    T.log(30002, "interruption ended while a system call is connected; waiting for the call to end")
    T.exp(30100, "interrupted", rule="I2", value=True)
    T.exp(30100, "route", rule="I2", route=None)
    T.rec(60000, "os.callState", state="disconnected")
    T.rec(60010, "sdk.callStateChanged", state="disconnected")
    T.exp(61990, "interrupted", rule="I3", value=True)
    T.exp(62000, "interrupted", rule="I3", value=False)
    T.exp(62000, "route", rule="I3", route="receiver")
    T.activate(62020)
    T.route(62040, "receiver", "categoryChange")
    T.rec(62050, "sdk.recovered")
    T.standard_leave(80000)
    T.exp(80100, "noFinding", end=True, code="interruption.notRecovered")
    T.exp(80100, "noFinding", end=True, rule="I4", code="interruption.prematureReactivation")
    T.exp(80100, "noFinding", end=True, rule="I4", code="interruption.recoveredWithoutActivation")
    T.exp(80100, "divergences", end=True, rule="X2", count=0)
    return T


@trace("smeeting-call-background-recovery.jsonl",
       "SMeeting: the member answers a cellular call and switches to the Phone app; the call ends with the app still in "
       "the background, so neither interruptionEnded nor the D retry recovers (I2); returning to the foreground does (I3).")
def call_background_recovery():
    T = Trace("smeeting", seed=82, model="iPhone15,2", os="iOS 17.4")
    T.every(2500, 90000, 2000, steady("good", "good"))
    T.standard_join(1000, "ops-weekly")
    T.rec(15000, "os.callState", state="incoming")
    T.rec(15030, "os.interruptionBegan", cause="systemCall")
    T.rec(15040, "sdk.interrupted")
    T.rec(15045, "sdk.callStateChanged", state="incoming")
    T.rec(18000, "os.callState", state="connected")
    T.rec(18010, "sdk.callStateChanged", state="connected")
    T.rec(18500, "os.appState", state="background")
    T.rec(30000, "os.appState", state="foreground")
    T.exp(30010, "interrupted", rule="I3", value=True)
    T.rec(33000, "os.appState", state="background")
    T.rec(50000, "os.callState", state="disconnected")
    T.rec(50010, "sdk.callStateChanged", state="disconnected")
    T.rec(50400, "os.interruptionEnded", shouldResume=True)
    T.exp(50500, "interrupted", rule="I2", value=True)
    T.exp(53000, "interrupted", rule="I2", value=True)
    T.rec(61000, "os.appState", state="foreground")
    T.exp(61000, "interrupted", rule="I3", value=False)
    T.exp(61000, "route", rule="I3", route="receiver")
    T.activate(61040)
    T.route(61060, "receiver", "categoryChange")
    T.rec(61070, "sdk.recovered")
    T.standard_leave(90000)
    T.exp(90100, "noFinding", end=True, code="interruption.notRecovered")
    T.exp(90100, "noFinding", end=True, code="app.missingBackgroundAudio")
    T.exp(90100, "noFinding", end=True, code="interruption.recoveredWithoutActivation")
    T.exp(90100, "divergences", end=True, rule="X2", count=0)
    return T


@trace("srtc-interruption-not-recovered.jsonl",
       "SRTC: a Siri interruption ends (call state idle, foreground) so the engine recovers, but the SDK neither "
       "reactivates the session successfully (its one attempt fails with isBusy) nor fires the recovered callback "
       "within 5000 ms -> interruption.notRecovered.")
def not_recovered():
    T = Trace("srtc", seed=83, model="iPhone13,3", os="iOS 16.7.2")
    T.every(2500, 40000, 2000, steady("excellent", "excellent"))
    T.standard_join(1000, "radio-check")
    T.rec(9000, "os.interruptionBegan", cause="siri")
    T.rec(9010, "sdk.interrupted")
    T.exp(9100, "interrupted", rule="I1", value=True)
    T.rec(13000, "os.interruptionEnded", shouldResume=True)
    T.exp(13000, "interrupted", rule="I3", value=False)
    T.activate(13040, ok=False, error="isBusy")
    T.log(13041, "AVAudioSession setActive(true) failed: 'busy' (561017449)", level="error")
    T.exp(17900, "noFinding", code="interruption.notRecovered")
    T.exp(18100, "finding", rule="I3", code="interruption.notRecovered", count=1)
    T.log(25000, "remote users report no audio from this device", level="warning")
    T.standard_leave(40000)
    T.exp(40100, "finding", end=True, code="interruption.notRecovered", count=1)
    T.exp(40100, "noFinding", end=True, code="interruption.recoveredWithoutActivation")
    return T


@trace("smeeting-premature-reactivation.jsonl",
       "SMeeting: interruptionEnded arrives during a connected cellular call and the SDK reactivates at once (fails with "
       "cannotInterruptOthers) -> interruption.prematureReactivation; the proper recovery follows after the hang-up.")
def premature_reactivation():
    T = Trace("smeeting", seed=84, model="iPhone14,7", os="iOS 17.1.2")
    T.every(2500, 70000, 2000, steady("good", "excellent"))
    T.standard_join(1000, "customer-escalation")
    T.rec(12000, "os.callState", state="incoming")
    T.rec(12020, "os.interruptionBegan", cause="systemCall")
    T.rec(12030, "sdk.interrupted")
    T.rec(14000, "os.callState", state="connected")
    T.rec(25000, "os.interruptionEnded", shouldResume=True)
    T.exp(25000, "noFinding", code="interruption.prematureReactivation")
    T.activate(25020, ok=False, error="cannotInterruptOthers")
    T.log(25021, "AVAudioSession setActive(true) failed: '!int' (560557684)", level="error")
    T.exp(25100, "finding", rule="I4", code="interruption.prematureReactivation", count=1)
    T.exp(25100, "interrupted", rule="I2", value=True)
    T.rec(44000, "os.callState", state="disconnected")
    T.exp(46000, "interrupted", rule="I3", value=False)
    T.activate(46030)
    T.route(46050, "receiver", "categoryChange")
    T.rec(46060, "sdk.recovered")
    T.standard_leave(70000)
    T.exp(70100, "finding", end=True, code="interruption.prematureReactivation", count=1)
    T.exp(70100, "noFinding", end=True, code="interruption.recoveredWithoutActivation")
    T.exp(70100, "noFinding", end=True, code="interruption.notRecovered")
    return T


@trace("srtc-recovered-without-activation.jsonl",
       "SRTC: after a declined call the SDK fires its recovered callback without reactivating the audio session -> "
       "interruption.recoveredWithoutActivation (but not notRecovered).")
def recovered_without_activation():
    T = Trace("srtc", seed=85, model="iPhone12,1", os="iOS 16.5")
    T.every(2500, 36000, 2000, steady("excellent", "good"))
    T.standard_join(1000, "tutoring-17")
    T.rec(8000, "os.callState", state="incoming")
    T.rec(8030, "os.interruptionBegan", cause="systemCall")
    T.rec(8040, "sdk.interrupted")
    T.rec(11000, "os.callState", state="disconnected")
    T.rec(11200, "os.interruptionEnded", shouldResume=True)
    T.exp(11200, "interrupted", rule="I3", value=False)
    T.rec(11230, "sdk.recovered")
    T.exp(11300, "finding", rule="I4", code="interruption.recoveredWithoutActivation", count=1)
    T.standard_leave(36000)
    T.exp(36100, "noFinding", end=True, code="interruption.notRecovered")
    T.exp(36100, "noFinding", end=True, code="interruption.prematureReactivation")
    T.exp(36100, "finding", end=True, code="interruption.recoveredWithoutActivation", count=1)
    return T


@trace("smeeting-siri-interruption.jsonl",
       "SMeeting: a Siri interruption before entering is ignored (not engaged); one during the meeting interrupts "
       "(route no prediction) and recovers at interruptionEnded with a proper reactivation.")
def siri_interruption():
    T = Trace("smeeting", seed=86, model="iPhone15,2", os="iOS 17.4")
    T.rec(500, "os.interruptionBegan", cause="siri")
    T.exp(510, "interrupted", rule="I1", value=False)
    T.rec(2500, "os.interruptionEnded", shouldResume=True)
    T.every(4600, 30000, 2000, steady("excellent", "good"))
    T.standard_join(4000, "product-demo")
    T.rec(12000, "os.interruptionBegan", cause="siri")
    T.rec(12010, "sdk.interrupted")
    T.exp(12100, "interrupted", rule="I1", value=True)
    T.exp(12100, "route", rule="R8", route=None)
    T.rec(16000, "os.interruptionEnded", shouldResume=True)
    T.activate(16030)
    T.rec(16040, "sdk.recovered")
    T.exp(16100, "interrupted", rule="I3", value=False)
    T.exp(16100, "route", rule="R8", route="receiver")
    T.standard_leave(30000)
    T.exp(30100, "noFinding", end=True, code="interruption.notRecovered")
    T.exp(30100, "noFinding", end=True, code="interruption.recoveredWithoutActivation")
    T.exp(30100, "divergences", end=True, rule="X2", count=0)
    return T


@trace("srtc-leave-during-interruption.jsonl",
       "SRTC: the app leaves the channel when a cellular call is answered; leaving ends the interruption state and a "
       "later interruptionEnded recovers nothing (no notRecovered).")
def leave_during_interruption():
    T = Trace("srtc", seed=87, model="iPhone14,5", os="iOS 17.5.1")
    T.every(2500, 14000, 2000, steady("good", "good"))
    T.standard_join(1000, "dispatch-4")
    T.rec(9000, "os.callState", state="incoming")
    T.rec(9020, "os.interruptionBegan", cause="systemCall")
    T.rec(9030, "sdk.interrupted")
    T.rec(11000, "os.callState", state="connected")
    T.exit(11500)
    T.deactivate(11540, notify=True)
    T.route(11555, "speaker", "categoryChange")
    T.rec(11560, "conn.state", state="disconnected")
    T.exp(11600, "interrupted", rule="I1", value=False)
    T.exp(11600, "engaged", rule="R6", value=False)
    T.rec(40000, "os.callState", state="disconnected")
    T.rec(40300, "os.interruptionEnded", shouldResume=True)
    T.exp(40400, "interrupted", rule="I2", value=False)
    T.exp(50000, "noFinding", end=True, code="interruption.notRecovered")
    T.exp(50000, "noFinding", end=True, code="interruption.recoveredWithoutActivation")
    return T


# ---------------------------------------------------------------------------
# 4. audio module
# ---------------------------------------------------------------------------
@trace("smeeting-audio-module-recording-playback.jsonl",
       "SMeeting: the app disables the audio module to play back a voice memo (nobody speaking), a speaker tap meanwhile "
       "is ineffective/audioModuleDisabled, re-enabling applies it; no leftDisabled, no disabledWhileSpeaking.")
def module_recording_playback():
    T = Trace("smeeting", seed=91, model="iPhone15,2", os="iOS 17.4")
    T.every(2500, 40000, 2000, steady("excellent", "good"))
    T.standard_join(1000, "interview-prep")
    T.speakers(4200, speaking=[("u2001", "mic", 0.42)])
    T.speakers(6200, stopped=[("u2001", "mic")])
    T.exp(6300, "speakers", rule="S2", speakers=[])
    m = T.rec(8000, "api.setAudioModuleEnabled", enabled=False)
    T.log(8001, "audio module disabled")
    T.exp(8010, "audioModule", rule="R9", enabled=False)
    T.exp(8010, "route", rule="R8", route=None)
    T.activate(8100, category="playback", mode="default", options=())
    T.route(8120, "speaker", "categoryChange")
    s = T.set_route(11000, "speaker", api="setSpeakerOutputEnabled(true)")
    T.exp(11010, "verdict", rule="R9", ref=s, verdict="ineffective", cause="audioModuleDisabled")
    T.exp(11010, "route", rule="R8", route=None)
    T.rec(20000, "api.setAudioModuleEnabled", enabled=True)
    T.activate(20040)
    T.rec(20050, "obs.overrideOutput", port="speaker")
    T.route(20060, "speaker", "override")
    T.exp(20100, "audioModule", rule="R9", enabled=True)
    T.exp(20100, "route", rule="R8", route="speaker")
    T.standard_leave(40000)
    T.exp(40100, "noFinding", end=True, code="audioModule.leftDisabled")
    T.exp(40100, "noFinding", end=True, code="audioModule.disabledWhileSpeaking")
    T.exp(40100, "noFinding", end=True, code="session.missingAllowBluetooth")
    T.exp(40100, "noFinding", end=True, code="session.wrongMode")
    T.exp(40100, "finding", end=True, code="route.ineffective", count=1)
    T.exp(40100, "divergences", end=True, rule="X2", count=0)
    return T


@trace("srtc-audio-module-left-disabled.jsonl",
       "SRTC: setAudioModuleEnabled(false) when a modal opens, never re-enabled; leaveChannel with the module still "
       "disabled -> audioModule.leftDisabled.")
def module_left_disabled():
    T = Trace("srtc", seed=92, model="iPhone13,2", os="iOS 17.2")
    T.every(2500, 30000, 2000, steady("good", "good"))
    T.standard_join(1000, "classroom-3b")
    T.rec(12000, "api.setAudioModuleEnabled", enabled=False)
    T.exp(12010, "audioModule", rule="R9", enabled=False)
    T.exp(12010, "noFinding", code="audioModule.leftDisabled")
    T.exp(12010, "engaged", rule="R6", value=True)
    T.exit(30000)
    T.deactivate(30040)
    T.route(30055, "speaker", "categoryChange")
    T.rec(30060, "conn.state", state="disconnected")
    T.exp(30100, "finding", code="audioModule.leftDisabled")
    T.exp(30100, "finding", end=True, code="audioModule.leftDisabled")
    return T


@trace("smeeting-audio-module-disabled-while-speaking.jsonl",
       "SMeeting: the audio module is disabled while two members are speaking (remote audio cut mid-sentence) -> "
       "audioModule.disabledWhileSpeaking; re-enabled before exit.")
def module_disabled_speaking():
    T = Trace("smeeting", seed=93, model="iPhone14,2", os="iOS 17.3")
    T.every(2500, 30000, 2000, steady("excellent", "excellent"))
    T.standard_join(1000, "board-meeting")
    T.speakers(5000, speaking=[("u3107", "mic", 0.61), ("u3300", "mic", 0.35)])
    T.exp(5100, "speakers", rule="S2", speakers=[{"uid": "u3107", "trackId": "mic"}, {"uid": "u3300", "trackId": "mic"}])
    T.exp(5100, "noFinding", code="audioModule.disabledWhileSpeaking")
    T.rec(7000, "api.setAudioModuleEnabled", enabled=False)
    T.exp(7010, "finding", code="audioModule.disabledWhileSpeaking", count=1)
    T.rec(15000, "api.setAudioModuleEnabled", enabled=True)
    T.exp(15010, "audioModule", rule="R9", enabled=True)
    T.exp(15010, "route", rule="R8", route="receiver")
    T.speakers(16000, stopped=[("u3107", "mic"), ("u3300", "mic")])
    T.standard_leave(30000)
    T.exp(30100, "noFinding", end=True, code="audioModule.leftDisabled")
    T.exp(30100, "finding", end=True, code="audioModule.disabledWhileSpeaking", count=1)
    T.exp(30100, "noFinding", end=True, code="speakers.mismatch")
    return T


@trace("srtc-rejoin-resets-audio-module.jsonl",
       "SRTC: the channel is left with the audio module disabled (leftDisabled once); a speaker request between channels "
       "is deferred/notEngaged; joining again resets the module to enabled (R9) and applies the request.")
def rejoin_resets_module():
    T = Trace("srtc", seed=94, model="iPhone15,4", os="iOS 17.5")
    T.every(2500, 20000, 2000, steady("excellent", "good"))
    T.standard_join(1000, "ward-round")
    T.rec(9000, "api.setAudioModuleEnabled", enabled=False)
    T.exit(20000)
    T.deactivate(20040)
    T.route(20055, "speaker", "categoryChange")
    T.rec(20060, "conn.state", state="disconnected")
    T.exp(20100, "audioModule", rule="R9", enabled=False)
    T.exp(20100, "finding", code="audioModule.leftDisabled", count=1)
    s = T.set_route(22000, "speaker", api="setSpeakerOutputPreferred(true)")
    T.exp(22010, "verdict", rule="R6", ref=s, verdict="deferred", cause="notEngaged")
    T.every(26000, 46000, 2000, steady("excellent", "good"))
    T.standard_join(25000, "ward-round", first_route="receiver")
    T.rec(25080, "obs.overrideOutput", port="speaker")
    T.route(25100, "speaker", "override")
    T.exp(25150, "audioModule", rule="R9", enabled=True)
    T.exp(25150, "route", rule="R9", route="speaker")
    T.standard_leave(46000)
    T.exp(46100, "finding", end=True, code="audioModule.leftDisabled", count=1)
    T.exp(46100, "divergences", end=True, rule="X2", count=0)
    return T


# ---------------------------------------------------------------------------
# 5. session configuration and app configuration
# ---------------------------------------------------------------------------
@trace("srtc-session-missing-notify-others.jsonl",
       "SRTC: the user was listening to music, joins, then leaves; the SDK deactivates without notifyOthersOnDeactivation "
       "so the music app never resumes -> session.missingNotifyOthers.")
def missing_notify_others():
    T = Trace("srtc", seed=101, model="iPhone14,5", os="iOS 17.5.1")
    T.every(2500, 25000, 2000, steady("excellent", "excellent"))
    T.standard_join(1000, "gym-coach-live")
    T.exp(1200, "noFinding", code="session.missingAllowBluetooth")
    T.exp(1200, "noFinding", code="session.wrongMode")
    T.standard_leave(25000, notify=False)
    T.exp(25100, "finding", code="session.missingNotifyOthers", count=1)
    T.exp(25100, "divergences", end=True, rule="X2", count=0)
    return T


@trace("smeeting-session-missing-default-to-speaker.jsonl",
       "SMeeting app with the speaker as default: the call session is activated in voiceChat without defaultToSpeaker -> "
       "session.missingDefaultToSpeaker (the SDK compensates with overrideOutputAudioPort).")
def missing_default_to_speaker():
    T = Trace("smeeting", seed=102, model="iPhone15,2", os="iOS 17.4", initial_default="speaker")
    T.every(2500, 28000, 2000, steady("good", "excellent"))
    T.exp(100, "target", rule="R2", target="speaker")
    T.standard_join(1000, "video-clinic", mode="voiceChat", first_route=None)
    T.rec(1070, "obs.overrideOutput", port="speaker")
    T.route(1080, "speaker", "override")
    T.exp(1200, "finding", code="session.missingDefaultToSpeaker", count=1)
    T.exp(1200, "noFinding", code="session.wrongMode")
    T.exp(1200, "route", rule="R2", route="speaker")
    T.standard_leave(28000)
    T.exp(28100, "divergences", end=True, rule="X2", count=0)
    return T


@trace("srtc-session-wrong-mode.jsonl",
       "SRTC: the call session is activated with mode `default` instead of voiceChat/videoChat (no echo cancellation) "
       "-> session.wrongMode.")
def wrong_mode():
    T = Trace("srtc", seed=103, model="iPhone13,4", os="iOS 17.1")
    T.every(2500, 22000, 2000, steady("excellent", "good"))
    T.standard_join(1000, "karaoke-night", mode="default")
    T.exp(1200, "finding", code="session.wrongMode", count=1)
    T.exp(1200, "noFinding", code="session.missingAllowBluetooth")
    T.standard_leave(22000)
    T.exp(22100, "finding", end=True, code="session.wrongMode", count=1)
    return T


@trace("smeeting-missing-mic-usage-description.jsonl",
       "SMeeting: Info.plist lacks NSMicrophoneUsageDescription; entering the meeting requests the microphone and the app "
       "is killed by the system (trace ends) -> app.missingMicUsageDescription.")
def missing_mic_usage():
    T = Trace("smeeting", seed=104, model="iPhone14,2", os="iOS 17.3", mic_usage=False)
    T.exp(200, "noFinding", code="app.missingMicUsageDescription")
    T.rec(900, "conn.engine", vendor="seaStart")
    T.enter(1000, "first-run-test")
    T.log(1004, "enterMeeting first-run-test")
    T.rec(1010, "conn.state", state="connecting")
    T.log(1020, "requesting record permission")
    T.exp(1030, "finding", code="app.missingMicUsageDescription", count=1)
    T.exp(1030, "engaged", rule="R6", value=True)
    T.exp(1030, "route", rule="R7", route="receiver")
    return T


@trace("srtc-missing-background-audio.jsonl",
       "SRTC: UIBackgroundModes lacks `audio`; backgrounding before joining is harmless, backgrounding during the call "
       "stops audio -> app.missingBackgroundAudio.")
def missing_background_audio():
    T = Trace("srtc", seed=105, model="iPhone12,1", os="iOS 16.7.8", background_audio=False)
    T.rec(400, "os.appState", state="background")
    T.rec(1500, "os.appState", state="foreground")
    T.exp(1510, "noFinding", code="app.missingBackgroundAudio")
    T.every(3000, 30000, 2000, steady("good", "good"))
    T.standard_join(2500, "walkie-talkie")
    T.rec(12000, "os.appState", state="background")
    T.exp(12010, "finding", code="app.missingBackgroundAudio", count=1)
    T.rec(18000, "os.appState", state="foreground")
    T.standard_leave(30000)
    T.exp(30100, "finding", end=True, code="app.missingBackgroundAudio", count=1)
    return T


# ---------------------------------------------------------------------------
# 6. quality
# ---------------------------------------------------------------------------
@trace("srtc-quality-reconnect.jsonl",
       "SRTC: level changes (unknown->good->poor), a Wi-Fi drop and reconnect clear quality and speakers (Q4); the next "
       "report is a change from unknown again. The SDK's qualityChanged events all match (no spurious/missed).")
def quality_reconnect():
    T = Trace("srtc", seed=111, model="iPhone14,5", os="iOS 17.5.1")
    T.sdk_quality = True
    T.sdk_speakers = True
    levels = {2500: ("excellent", "good"), 4500: ("good", "good"), 6500: ("excellent", "poor"),
              8500: ("good", "poor"), 10500: ("good", "poor")}
    T.every(2500, 12000, 2000, lambda t: levels[t])
    T.standard_join(1000, "delivery-tracking")
    T.exp(2400, "quality", rule="Q3", value=None)
    T.speakers(3000, speaking=[("u501", "mic", 0.7)])
    T.exp(4600, "quality", rule="Q1", overall="good")
    T.exp(8600, "qualityChanges", rule="Q2", changes=[{"previous": "unknown", "overall": "good"},
                                                     {"previous": "good", "overall": "poor"}])
    T.rec(11800, "conn.state", state="reconnecting")
    T.log(11801, "signalling transport lost (network changed), reconnecting", level="warning")
    T.exp(12000, "quality", rule="Q3", overall="poor")
    T.exp(12000, "speakers", rule="S1", speakers=[{"uid": "u501", "trackId": "mic"}])
    T.rec(14300, "conn.state", state="connected")
    T.exp(14300, "quality", rule="Q4", value=None)
    T.exp(14300, "speakers", rule="Q4", speakers=[])
    after = {16300: ("excellent", "good"), 18300: ("excellent", "excellent"), 20300: ("excellent", "excellent"),
             22300: ("excellent", "excellent"), 24300: ("excellent", "excellent"), 26300: ("excellent", "excellent")}
    T.every(16300, 28000, 2000, lambda t: after[t])
    T.exp(16400, "quality", rule="Q4", overall="good")
    T.exp(16400, "qualityChanges", rule="Q4", changes=[{"previous": "unknown", "overall": "good"},
                                                      {"previous": "good", "overall": "poor"},
                                                      {"previous": "unknown", "overall": "good"}])
    T.exp(18400, "qualityChanges", rule="Q2", changes=[{"previous": "unknown", "overall": "good"},
                                                      {"previous": "good", "overall": "poor"},
                                                      {"previous": "unknown", "overall": "good"},
                                                      {"previous": "good", "overall": "excellent"}])
    T.speakers(19000, speaking=[("u501", "mic", 0.55)])
    T.standard_leave(28000)
    T.exp(28100, "noFinding", end=True, code="quality.missedChange")
    T.exp(28100, "noFinding", end=True, code="quality.spuriousChange")
    T.exp(28100, "noFinding", end=True, code="speakers.mismatch")
    return T


@trace("smeeting-quality-mos-attribution.jsonl",
       "SMeeting: the member's own uplink degrades (pub poor, sub excellent) and later the downlink is lost (sub lost); "
       "overall is the worse side, mos the smaller (Q1); explain attributes each to uplink/downlink (Q6).")
def quality_mos_attribution():
    T = Trace("smeeting", seed=112, model="iPhone13,2", os="iOS 17.2")
    plan = [("excellent", "excellent")] * 6 + [("poor", "excellent")] * 4 + [("good", "good")] * 4 + \
           [("good", "lost")] * 3 + [("good", "good")] * 4
    T.standard_join(1000, "field-inspection", mode="videoChat", first_route="speaker")
    for i, lv in enumerate(plan):
        tt = 2500 + 2000 * i
        seq, m = T.qreport(tt, *lv)
        if i == 0:
            T.exp(tt + 50, "quality", rule="Q1", overall="excellent", mos=m)
        if i == 7:    # second poor-uplink report: pub poor, sub excellent
            T.exp(tt + 50, "quality", rule="Q1", overall="poor", mos=m)
            T.exp(tt + 50, "quality", rule="Q6", overall="poor")
        if i == 15:   # downlink lost: pub good, sub lost
            T.exp(tt + 50, "quality", rule="Q1", overall="lost", mos=m)
            T.exp(tt + 50, "quality", rule="Q6", overall="lost")
    T.exp(T.last_t + 10, "qualityChanges", rule="Q2", changes=[
        {"previous": "unknown", "overall": "excellent"}, {"previous": "excellent", "overall": "poor"},
        {"previous": "poor", "overall": "good"}, {"previous": "good", "overall": "lost"},
        {"previous": "lost", "overall": "good"}])
    T.standard_leave(T.last_t + 1500)
    T.exp(T.last_t + 10, "noFinding", end=True, code="quality.flapping")
    T.exp(T.last_t + 10, "noFinding", end=True, code="quality.missedChange")
    return T


@trace("srtc-quality-null-vs-unknown.jsonl",
       "SRTC: getConnectionQuality() is null before the first report, then `unknown` (not null) after a report whose "
       "levels are unknown; unknown is the best level, so excellent/unknown is excellent.")
def quality_null_vs_unknown():
    T = Trace("srtc", seed=113, model="iPhone15,2", os="iOS 17.4")
    T.standard_join(1000, "solo-broadcast")
    T.exp(1600, "quality", rule="Q3", value=None)
    T.qreport(2500, "unknown", "unknown")
    T.exp(2550, "quality", rule="Q3", overall="unknown")
    T.exp(2550, "qualityChanges", rule="Q2", changes=[])
    seq, m = T.qreport(4500, "excellent", "unknown")
    T.exp(4550, "quality", rule="Q1", overall="excellent", mos=m)
    T.exp(4550, "qualityChanges", rule="Q2", changes=[{"previous": "unknown", "overall": "excellent"}])
    T.every(6500, 20000, 2000, steady("excellent", "good"))
    T.exp(6550, "quality", rule="Q1", overall="good")
    T.standard_leave(20000)
    T.exp(20100, "qualityChanges", rule="Q2", changes=[{"previous": "unknown", "overall": "excellent"},
                                                      {"previous": "excellent", "overall": "good"}])
    return T


@trace("srtc-cdn-wangsu.jsonl",
       "SRTC on the Wangsu CDN engine: no quality/speaker/layer events, getConnectionQuality() null, switchLayer throws "
       "engineNotSupported even before the transport connects (L1 order).")
def cdn_wangsu():
    T = Trace("srtc", seed=114, model="iPhone14,3", os="iOS 17.4.1")
    T.standard_join(1000, "live-concert", engine="wangsu", connect=False)
    T.rec(1100, "api.subscribe", pubUid="u9000", trackId="video-main", layers=["video-main-h", "video-main-l"])
    s1 = T.rec(1150, "api.switchLayer", pubUid="u9000", trackId="video-main", targetTrackId="video-main-l")
    T.rec(1151, "sdk.error", api="switchLayer", error="engineNotSupported")
    T.exp(1160, "verdict", rule="L1", ref=s1, verdict="rejected", cause="engineNotSupported")
    T.rec(1700, "conn.state", state="connected")
    T.exp(12000, "quality", rule="Q5", value=None)
    T.exp(12000, "speakers", rule="Q5", speakers=[])
    s2 = T.rec(15000, "api.switchLayer", pubUid="u9000", trackId="video-main", targetTrackId="video-main-h")
    T.rec(15001, "sdk.error", api="switchLayer", error="engineNotSupported")
    T.exp(15010, "verdict", rule="Q5", ref=s2, verdict="rejected", cause="engineNotSupported")
    T.standard_leave(40000)
    T.exp(40100, "quality", rule="Q5", value=None)
    T.exp(40100, "noFinding", end=True, code="layer.switchNotConfirmed")
    T.exp(40100, "noFinding", end=True, code="quality.missedChange")
    return T


@trace("smeeting-quality-flapping.jsonl",
       "SMeeting on a congested hotel Wi-Fi: the level jitters good<->poor; four changes in 30 s are fine, the fifth "
       "makes quality.flapping. The SDK's qualityChanged events match every change.")
def quality_flapping():
    T = Trace("smeeting", seed=115, model="iPhone14,2", os="iOS 17.3")
    T.sdk_quality = True
    seq = [("good", "good"), ("good", "poor"), ("good", "poor"), ("good", "good"), ("poor", "good"),
           ("good", "good"), ("good", "good"), ("good", "good"), ("good", "good"), ("good", "good"),
           ("good", "good"), ("good", "good"), ("good", "good")]
    plan = {2500 + 2000 * i: lv for i, lv in enumerate(seq)}
    T.every(2500, 2500 + 2000 * len(seq), 2000, lambda t: plan[t])
    T.standard_join(1000, "offsite-planning")
    # changes: 2500 unknown->good, 4500 good->poor, 8500 poor->good, 10500 good->poor, 12500 poor->good
    T.exp(10600, "noFinding", code="quality.flapping")
    T.exp(10600, "qualityChanges", rule="Q2", changes=[
        {"previous": "unknown", "overall": "good"}, {"previous": "good", "overall": "poor"},
        {"previous": "poor", "overall": "good"}, {"previous": "good", "overall": "poor"}])
    T.exp(12600, "finding", code="quality.flapping")
    T.standard_leave(28000)
    T.exp(28100, "noFinding", end=True, code="quality.missedChange")
    T.exp(28100, "noFinding", end=True, code="quality.spuriousChange")
    return T


@trace("srtc-quality-spurious-and-missed.jsonl",
       "SRTC: the SDK misses the excellent->poor level change (quality.missedChange) and later emits an excellent->good "
       "change no report supports (quality.spuriousChange); the other changes match.")
def quality_spurious_missed():
    T = Trace("srtc", seed=116, model="iPhone13,4", os="iOS 17.1")
    T.standard_join(1000, "telehealth-204")
    T.qreport(2500, "excellent", "excellent")
    T.rec(2503, "sdk.qualityChanged", previous="unknown", overall="excellent")
    T.qreport(4500, "excellent", "excellent")
    T.qreport(6500, "poor", "excellent")          # derived excellent->poor: the SDK emits nothing
    T.exp(7400, "noFinding", code="quality.missedChange")
    T.qreport(8500, "poor", "excellent")
    T.exp(8500, "finding", code="quality.missedChange", count=1)
    T.qreport(10500, "excellent", "excellent")
    T.rec(10504, "sdk.qualityChanged", previous="poor", overall="excellent")
    T.qreport(12500, "excellent", "excellent")
    T.qreport(14500, "excellent", "excellent")
    T.rec(15200, "sdk.qualityChanged", previous="excellent", overall="good")  # nothing derived
    T.exp(15210, "finding", code="quality.spuriousChange", count=1)
    T.qreport(16500, "excellent", "excellent")
    T.standard_leave(18000)
    T.exp(18100, "qualityChanges", rule="Q2", changes=[
        {"previous": "unknown", "overall": "excellent"}, {"previous": "excellent", "overall": "poor"},
        {"previous": "poor", "overall": "excellent"}])
    T.exp(18100, "finding", end=True, code="quality.missedChange", count=1)
    T.exp(18100, "finding", end=True, code="quality.spuriousChange", count=1)
    return T


@trace("srtc-quality-late-sdk-event.jsonl",
       "SRTC: the SDK reports a level change 2.1 s late (outside the 1000 ms match window): it is both a missed change "
       "and a spurious event; a change reported 600 ms late still matches.")
def quality_late_event():
    T = Trace("srtc", seed=117, model="iPhone15,4", os="iOS 17.5")
    T.standard_join(1000, "remote-support")
    T.qreport(2500, "good", "good")
    T.rec(3100, "sdk.qualityChanged", previous="unknown", overall="good")     # 600 ms late: matches
    T.exp(3200, "noFinding", code="quality.spuriousChange")
    T.qreport(4500, "good", "poor")
    T.qreport(6500, "good", "poor")
    T.rec(6600, "sdk.qualityChanged", previous="good", overall="poor")       # 2100 ms late
    T.exp(6610, "finding", code="quality.missedChange", count=1)
    T.exp(6610, "finding", code="quality.spuriousChange", count=1)
    T.qreport(8500, "good", "good")
    T.rec(8505, "sdk.qualityChanged", previous="poor", overall="good")
    T.standard_leave(10000)
    T.exp(10100, "finding", end=True, code="quality.missedChange", count=1)
    T.exp(10100, "finding", end=True, code="quality.spuriousChange", count=1)
    return T


# ---------------------------------------------------------------------------
# 7. active speakers
# ---------------------------------------------------------------------------
def keys(*pairs):
    return [{"uid": u, "trackId": k} for (u, k) in pairs]


@trace("srtc-speakers-ties-and-stop.jsonl",
       "SRTC panel: equal levels are ordered by uid then trackId; a later level update re-sorts (S1); stopped speakers "
       "are removed and an empty snapshot is emitted when nobody speaks (S2). The SDK's snapshots all match.")
def speakers_ties():
    T = Trace("srtc", seed=121, model="iPhone15,2", os="iOS 17.4")
    T.sdk_speakers = True
    T.every(2500, 30000, 2000, steady("excellent", "good"))
    T.standard_join(1000, "podcast-panel")
    T.speakers(4000, speaking=[("u30", "mic", 0.5), ("u12", "screen-audio", 0.5), ("u12", "mic", 0.5),
                               ("u21", "mic", 0.8)])
    T.exp(4100, "speakers", rule="S2", speakers=keys(("u21", "mic"), ("u12", "mic"), ("u12", "screen-audio"),
                                                     ("u30", "mic")))
    T.speakers(5000, speaking=[("u30", "mic", 0.9)])
    T.exp(5100, "speakers", rule="S1", speakers=keys(("u30", "mic"), ("u21", "mic"), ("u12", "mic"),
                                                     ("u12", "screen-audio")))
    T.speakers(6000, stopped=[("u21", "mic")])
    T.exp(6100, "speakers", rule="S1", speakers=keys(("u30", "mic"), ("u12", "mic"), ("u12", "screen-audio")))
    T.speakers(7000, speaking=[("u12", "screen-audio", 0.2)], stopped=[("u30", "mic")])
    T.exp(7100, "speakers", rule="S2", speakers=keys(("u12", "mic"), ("u12", "screen-audio")))
    T.speakers(8000, stopped=[("u12", "mic"), ("u12", "screen-audio")])
    T.exp(8100, "speakers", rule="S2", speakers=[])
    T.speakers(12000, speaking=[("u9", "mic", 0.3), ("u10", "mic", 0.3)])
    T.exp(12100, "speakers", rule="S2", speakers=keys(("u10", "mic"), ("u9", "mic")))
    T.speakers(14000, stopped=[("u9", "mic"), ("u10", "mic")])
    T.standard_leave(30000)
    T.exp(30100, "noFinding", end=True, code="speakers.mismatch")
    return T


@trace("smeeting-speakers-mismatch.jsonl",
       "SMeeting: the SDK emits one active-speaker snapshot sorted quietest first (out of order) -> speakers.mismatch; "
       "its other snapshots match.")
def speakers_mismatch():
    T = Trace("smeeting", seed=122, model="iPhone14,5", os="iOS 17.5.1")
    T.every(2500, 24000, 2000, steady("good", "excellent"))
    T.standard_join(1000, "design-crit")
    T.speakers(4000, speaking=[("m-anna", "mic", 0.62)])
    T.rec(4003, "sdk.activeSpeakers", speakers=[{"uid": "m-anna", "trackId": "mic", "level": 0.62}])
    T.exp(4010, "noFinding", code="speakers.mismatch")
    T.speakers(5000, speaking=[("m-bo", "mic", 0.81), ("m-chen", "mic", 0.15)])
    T.rec(5003, "sdk.activeSpeakers", speakers=[{"uid": "m-chen", "trackId": "mic", "level": 0.15},
                                                {"uid": "m-anna", "trackId": "mic", "level": 0.62},
                                                {"uid": "m-bo", "trackId": "mic", "level": 0.81}])
    T.exp(5010, "speakers", rule="S2", speakers=keys(("m-bo", "mic"), ("m-anna", "mic"), ("m-chen", "mic")))
    T.exp(5010, "finding", code="speakers.mismatch", count=1)
    T.speakers(6000, stopped=[("m-chen", "mic")])
    T.rec(6003, "sdk.activeSpeakers", speakers=[{"uid": "m-bo", "trackId": "mic", "level": 0.8},
                                                {"uid": "m-anna", "trackId": "mic", "level": 0.6}])
    T.exp(6010, "finding", code="speakers.mismatch", count=1)
    T.speakers(9000, stopped=[("m-bo", "mic"), ("m-anna", "mic")])
    T.rec(9003, "sdk.activeSpeakers", speakers=[])
    T.exp(9010, "speakers", rule="S2", speakers=[])
    T.standard_leave(24000)
    T.exp(24100, "finding", end=True, code="speakers.mismatch", count=1)
    return T


# ---------------------------------------------------------------------------
# 8. simulcast layers
# ---------------------------------------------------------------------------
SUB = dict(pubUid="u7701", trackId="cam-7701", layers=["cam-7701-h", "cam-7701-m", "cam-7701-l"])


@trace("srtc-layer-not-in-candidates.jsonl",
       "SRTC: switchLayer to a track id that is not among the subscribe candidates -> ineffective/targetNotInCandidates "
       "(layer.targetNotInCandidates, never confirmed and not expected to be); a valid switch is applied and confirmed.")
def layer_not_in_candidates():
    T = Trace("srtc", seed=131, model="iPad13,4", os="iPadOS 17.4")
    T.every(2500, 20000, 2000, steady("excellent", "good"))
    T.standard_join(1000, "grand-rounds", mode="videoChat", first_route="speaker")
    T.rec(2000, "api.subscribe", **SUB)
    s = T.rec(5000, "api.switchLayer", pubUid="u7701", trackId="cam-7701", targetTrackId="cam-7701-xl")
    T.exp(5010, "verdict", rule="L2", ref=s, verdict="ineffective", cause="targetNotInCandidates")
    T.exp(5010, "finding", rule="L2", code="layer.targetNotInCandidates", count=1)
    s2 = T.rec(10000, "api.switchLayer", pubUid="u7701", trackId="cam-7701", targetTrackId="cam-7701-l")
    T.exp(10010, "verdict", rule="L3", ref=s2, verdict="applied")
    T.rec(10240, "srv.layerSwitched", pubUid="u7701", trackId="cam-7701", fromTrackId="cam-7701-h",
          toTrackId="cam-7701-l", reason="client", latencyMs=240)
    T.rec(10242, "sdk.layerSwitched", pubUid="u7701", trackId="cam-7701", fromTrackId="cam-7701-h",
          toTrackId="cam-7701-l", reason="client", latencyMs=240)
    T.standard_leave(20000)
    T.exp(20100, "noFinding", end=True, rule="L3", code="layer.switchNotConfirmed")
    T.exp(20100, "finding", end=True, code="layer.targetNotInCandidates", count=1)
    return T


@trace("srtc-layer-switch-not-confirmed.jsonl",
       "SRTC: a proactive downgrade switchLayer is accepted but the SFU never confirms it with reason `client` "
       "(only a bwe_up switch arrives) within 3000 ms -> layer.switchNotConfirmed.")
def layer_not_confirmed():
    T = Trace("srtc", seed=132, model="iPhone15,3", os="iOS 17.5")
    T.every(2500, 24000, 2000, lambda t: ("good", "poor") if 6000 < t < 12000 else ("good", "good"))
    T.standard_join(1000, "site-survey", mode="videoChat", first_route="speaker")
    T.rec(2000, "api.subscribe", **SUB)
    s = T.rec(8600, "api.switchLayer", pubUid="u7701", trackId="cam-7701", targetTrackId="cam-7701-l")
    T.exp(8610, "verdict", rule="L1", ref=s, verdict="applied")
    T.rec(9400, "srv.layerSwitched", pubUid="u7701", trackId="cam-7701", fromTrackId="cam-7701-h",
          toTrackId="cam-7701-m", reason="bwe_down", latencyMs=410)
    T.exp(11500, "noFinding", code="layer.switchNotConfirmed")
    T.exp(11700, "finding", rule="L3", code="layer.switchNotConfirmed", count=1)
    T.rec(13000, "srv.layerSwitched", pubUid="u7701", trackId="cam-7701", fromTrackId="cam-7701-m",
          toTrackId="cam-7701-h", reason="bwe_up", latencyMs=380)
    T.standard_leave(24000)
    T.exp(24100, "finding", end=True, code="layer.switchNotConfirmed", count=1)
    return T


@trace("smeeting-layer-switch-confirmed.jsonl",
       "SMeeting: the member pins a shared screen and switches it to the high layer; the SFU confirms with reason `client` "
       "after 350 ms; a later bandwidth-driven switch (bwe_down) needs no confirmation.")
def layer_confirmed():
    T = Trace("smeeting", seed=133, model="iPad14,1", os="iPadOS 17.3")
    T.every(2500, 30000, 2000, steady("excellent", "excellent"))
    T.standard_join(1000, "architecture-review", mode="videoChat", first_route="speaker")
    T.rec(2200, "api.subscribe", pubUid="m-lee", trackId="screen-1", layers=["screen-1-h", "screen-1-l"])
    s = T.rec(6000, "api.switchLayer", pubUid="m-lee", trackId="screen-1", targetTrackId="screen-1-h")
    T.exp(6010, "verdict", rule="L3", ref=s, verdict="applied")
    T.rec(6350, "srv.layerSwitched", pubUid="m-lee", trackId="screen-1", fromTrackId="screen-1-l",
          toTrackId="screen-1-h", reason="client", latencyMs=350)
    T.rec(6352, "sdk.layerSwitched", pubUid="m-lee", trackId="screen-1", fromTrackId="screen-1-l",
          toTrackId="screen-1-h", reason="client", latencyMs=350)
    T.exp(10000, "noFinding", rule="L3", code="layer.switchNotConfirmed")
    T.rec(18000, "srv.layerSwitched", pubUid="m-lee", trackId="screen-1", fromTrackId="screen-1-h",
          toTrackId="screen-1-l", reason="bwe_down", latencyMs=290)
    T.rec(18002, "sdk.layerSwitched", pubUid="m-lee", trackId="screen-1", fromTrackId="screen-1-h",
          toTrackId="screen-1-l", reason="bwe_down", latencyMs=290)
    T.standard_leave(30000)
    T.exp(30100, "noFinding", end=True, code="layer.switchNotConfirmed")
    T.exp(30100, "noFinding", end=True, code="layer.targetNotInCandidates")
    return T


@trace("srtc-layer-transport-not-ready.jsonl",
       "SRTC: switchLayer right after joinChannel (transport still connecting) and again while reconnecting throws "
       "transportNotReady; once connected the same call is applied and confirmed.")
def layer_transport_not_ready():
    T = Trace("srtc", seed=134, model="iPhone14,2", os="iOS 17.4.1")
    T.standard_join(1000, "drone-feed", mode="videoChat", connect=False, first_route="speaker")
    T.rec(1100, "api.subscribe", **SUB)
    s1 = T.rec(1200, "api.switchLayer", pubUid="u7701", trackId="cam-7701", targetTrackId="cam-7701-m")
    T.rec(1201, "sdk.error", api="switchLayer", error="transportNotReady")
    T.exp(1210, "verdict", rule="L1", ref=s1, verdict="rejected", cause="transportNotReady")
    T.rec(1650, "conn.state", state="connected")
    T.every(3000, 26000, 2000, lambda t: None if 9000 < t < 13000 else ("excellent", "good"))
    s2 = T.rec(4000, "api.switchLayer", pubUid="u7701", trackId="cam-7701", targetTrackId="cam-7701-m")
    T.exp(4010, "verdict", rule="L1", ref=s2, verdict="applied")
    T.rec(4300, "srv.layerSwitched", pubUid="u7701", trackId="cam-7701", fromTrackId="cam-7701-h",
          toTrackId="cam-7701-m", reason="client", latencyMs=300)
    T.rec(9000, "conn.state", state="reconnecting")
    s3 = T.rec(9500, "api.switchLayer", pubUid="u7701", trackId="cam-7701", targetTrackId="cam-7701-l")
    T.rec(9501, "sdk.error", api="switchLayer", error="transportNotReady")
    T.exp(9510, "verdict", rule="L1", ref=s3, verdict="rejected", cause="transportNotReady")
    T.rec(12400, "conn.state", state="connected")
    T.standard_leave(26000)
    T.exp(26100, "noFinding", end=True, code="layer.switchNotConfirmed")
    return T


# ---------------------------------------------------------------------------
# 10. sharper edges of the contract
# ---------------------------------------------------------------------------
@trace("srtc-divergence-tolerance.jsonl",
       "SRTC: a route lag of exactly 500 ms is within tolerance, 520 ms is a divergence (counted once it lasts longer "
       "than 500 ms); an `unknown` reading and a difference during an interruption (no prediction) are not divergences.")
def divergence_tolerance():
    T = Trace("srtc", seed=141, model="iPhone13,2", os="iOS 17.2")
    T.every(2500, 30000, 2000, steady("excellent", "good"))
    T.standard_join(1000, "latency-lab")
    a = T.set_route(5000, "speaker", api="setAudioRoute(.speaker)")
    T.rec(5010, "obs.overrideOutput", port="speaker")
    T.route(5500, "speaker", "override")
    T.exp(6000, "divergences", rule="X2", count=0)
    T.exp(6000, "verdict", rule="V1", ref=a, verdict="applied")
    T.set_route(8000, "earpiece", api="setAudioRoute(.earpiece)")
    T.rec(8010, "obs.overrideOutput", port="none")
    T.exp(8500, "divergences", rule="X2", count=0)
    T.exp(8510, "divergences", rule="X2", count=1)
    T.route(8520, "receiver", "override")
    T.set_route(12000, "speaker", api="setAudioRoute(.speaker)")
    T.snapshot(12050, "unknown")
    T.exp(14000, "divergences", rule="X2", count=1)
    T.rec(14900, "obs.overrideOutput", port="speaker")
    T.route(15000, "speaker", "override")
    T.rec(18000, "os.interruptionBegan", cause="siri")
    T.rec(18010, "sdk.interrupted")
    T.route(18100, "receiver", "categoryChange")
    T.exp(21000, "divergences", rule="X2", count=1)
    T.rec(22000, "os.interruptionEnded", shouldResume=True)
    T.activate(22020)
    T.rec(22030, "obs.overrideOutput", port="speaker")
    T.route(22040, "speaker", "override")
    T.rec(22050, "sdk.recovered")
    T.standard_leave(30000)
    T.exp(30100, "divergences", end=True, rule="X2", count=1)
    T.exp(30100, "finding", end=True, rule="X3", code="route.divergence", count=1)
    return T


@trace("srtc-verdict-cause-order.jsonl",
       "SRTC: V1 cause precedence: notEngaged beats an active bluetooth route, interrupted beats a disabled audio module, "
       "audioModuleDisabled beats externalRouteActive, externalRouteActive beats overrideActive.")
def verdict_cause_order():
    T = Trace("srtc", seed=142, model="iPhone15,2", os="iOS 17.4")
    T.rec(300, "os.deviceConnected", **AIRPODS)
    T.snapshot(320, "bluetooth", ports=["BluetoothA2DPOutput"])
    a = T.set_route(600, "speaker", api="setAudioRoute(.speaker)")
    T.exp(610, "verdict", rule="V1", ref=a, verdict="deferred", cause="notEngaged")
    T.every(2500, 30000, 2000, steady("excellent", "excellent"))
    T.standard_join(1500, "priority-check", first_route="bluetooth")
    T.exp(1700, "route", rule="R4", route="bluetooth")
    T.rec(5000, "os.interruptionBegan", cause="siri")
    T.rec(5010, "sdk.interrupted")
    T.rec(5500, "api.setAudioModuleEnabled", enabled=False)
    b = T.set_route(6000, "earpiece", api="setAudioRoute(.earpiece)")
    T.exp(6010, "verdict", rule="V1", ref=b, verdict="deferred", cause="interrupted")
    T.rec(8000, "os.interruptionEnded", shouldResume=True)
    T.activate(8030)
    T.rec(8040, "sdk.recovered")
    T.exp(8100, "interrupted", rule="I3", value=False)
    T.exp(8100, "route", rule="R8", route=None)
    c = T.set_route(10000, "speaker", api="setAudioRoute(.speaker)")
    T.exp(10010, "verdict", rule="V1", ref=c, verdict="ineffective", cause="audioModuleDisabled")
    T.rec(12000, "api.setAudioModuleEnabled", enabled=True)
    T.exp(12010, "route", rule="R4", route="bluetooth")
    d = T.set_default(14000, "speaker")
    T.exp(14010, "verdict", rule="V1", ref=d, verdict="ineffective", cause="externalRouteActive")
    T.rec(18000, "os.deviceDisconnected", id=AIRPODS["id"])
    T.rec(18020, "obs.overrideOutput", port="speaker")
    T.route(18040, "speaker", "oldDeviceUnavailable")
    T.exp(18100, "route", rule="R5", route="speaker")
    e = T.set_default(20000, "earpiece")
    T.exp(20010, "verdict", rule="V1", ref=e, verdict="ineffective", cause="overrideActive")
    T.standard_leave(30000)
    T.exp(30100, "finding", end=True, code="route.ineffective", count=5)
    T.exp(30100, "divergences", end=True, rule="X2", count=0)
    return T


@trace("srtc-quality-duplicate-event.jsonl",
       "SRTC: the SDK emits the same unknown->good change twice; matching is one-to-one, so the duplicate is a "
       "quality.spuriousChange while no change is missed.")
def quality_duplicate():
    T = Trace("srtc", seed=143, model="iPhone14,2", os="iOS 17.4.1")
    T.standard_join(1000, "sensor-stream")
    T.qreport(2500, "good", "excellent")
    T.rec(2504, "sdk.qualityChanged", previous="unknown", overall="good")
    T.rec(2700, "sdk.qualityChanged", previous="unknown", overall="good")
    T.exp(2710, "finding", code="quality.spuriousChange", count=1)
    T.qreport(4500, "good", "poor")
    T.rec(4503, "sdk.qualityChanged", previous="good", overall="poor")
    T.qreport(6500, "good", "poor")
    T.qreport(8500, "good", "good")
    T.rec(8502, "sdk.qualityChanged", previous="poor", overall="good")
    T.standard_leave(10000)
    T.exp(10100, "finding", end=True, code="quality.spuriousChange", count=1)
    T.exp(10100, "noFinding", end=True, code="quality.missedChange")
    T.exp(10100, "qualityChanges", end=True, rule="Q2", changes=[
        {"previous": "unknown", "overall": "good"}, {"previous": "good", "overall": "poor"},
        {"previous": "poor", "overall": "good"}])
    return T


@trace("smeeting-reenter-resets-audio-module.jsonl",
       "SMeeting: exiting with the audio module disabled (leftDisabled), re-entering resets it to enabled (R9); in the "
       "second meeting it is disabled again and the trace ends without an exit (leftDisabled at end of trace).")
def reenter_resets_module():
    T = Trace("smeeting", seed=144, model="iPhone13,3", os="iOS 16.7.2")
    T.every(2500, 16000, 2000, steady("good", "excellent"))
    T.standard_join(1000, "check-in")
    T.rec(6000, "api.setAudioModuleEnabled", enabled=False)
    T.standard_leave(16000)
    T.exp(16100, "finding", code="audioModule.leftDisabled", count=1)
    T.every(21000, 40000, 2000, steady("good", "excellent"))
    T.standard_join(20000, "check-in")
    T.exp(20100, "audioModule", rule="R9", enabled=True)
    T.exp(20100, "route", rule="R9", route="receiver")
    T.rec(30000, "api.setAudioModuleEnabled", enabled=False)
    T.exp(30010, "finding", code="audioModule.leftDisabled", count=1)
    T.rec(39000, "os.appState", state="background")
    T.exp(39100, "finding", end=True, code="audioModule.leftDisabled", count=2)
    return T


@trace("smeeting-interruption-ended-late.jsonl",
       "SMeeting: the cellular call ends but interruptionEnded comes 3 s later; the D retry (2 s after the hang-up) "
       "finds the end still missing and recovers as if it had ended (I6, interruption.endNeverArrived); the late end "
       "changes nothing.")
def interruption_ended_late():
    T = Trace("smeeting", seed=145, model="iPhone15,4", os="iOS 17.5")
    T.every(2500, 40000, 2000, steady("excellent", "good"))
    T.standard_join(1000, "retro-42")
    T.rec(8000, "os.callState", state="incoming")
    T.rec(8030, "os.interruptionBegan", cause="systemCall")
    T.rec(8040, "sdk.interrupted")
    T.rec(10000, "os.callState", state="connected")
    T.rec(20000, "os.callState", state="disconnected")
    T.exp(21999, "interrupted", rule="I3", value=True)
    T.exp(22000, "interrupted", rule="I6", value=False)
    T.exp(22000, "finding", rule="I6", code="interruption.endNeverArrived", count=1)
    T.rec(23000, "os.interruptionEnded", shouldResume=True)
    T.exp(23000, "interrupted", rule="I3", value=False)
    T.activate(23030)
    T.rec(23040, "sdk.recovered")
    T.standard_leave(40000)
    T.exp(40100, "noFinding", end=True, code="interruption.notRecovered")
    T.exp(40100, "noFinding", end=True, code="interruption.prematureReactivation")
    T.exp(40100, "divergences", end=True, rule="X2", count=0)
    return T


@trace("srtc-default-speaker-without-option.jsonl",
       "SRTC: defaultAudioRoute = .speaker is set before joining (deferred/notEngaged) but the call session is activated "
       "without defaultToSpeaker -> session.missingDefaultToSpeaker; a later activation with it is fine.")
def default_speaker_without_option():
    T = Trace("srtc", seed=146, model="iPhone14,7", os="iOS 17.0.3")
    d = T.set_default(300, "speaker")
    T.exp(310, "verdict", rule="R6", ref=d, verdict="deferred", cause="notEngaged")
    T.every(2500, 30000, 2000, steady("good", "good"))
    T.standard_join(1000, "hands-free-demo", first_route="receiver")
    T.rec(1090, "obs.overrideOutput", port="speaker")
    T.route(1110, "speaker", "override")
    T.exp(1200, "finding", code="session.missingDefaultToSpeaker", count=1)
    T.exp(1200, "route", rule="R2", route="speaker")
    T.rec(9000, "os.interruptionBegan", cause="siri")
    T.rec(9010, "sdk.interrupted")
    T.rec(12000, "os.interruptionEnded", shouldResume=True)
    T.activate(12030, options=("defaultToSpeaker", "allowBluetooth", "allowBluetoothA2DP"))
    T.rec(12040, "sdk.recovered")
    T.standard_leave(30000)
    T.exp(30100, "finding", end=True, code="session.missingDefaultToSpeaker", count=1)
    T.exp(30100, "divergences", end=True, rule="X2", count=0)
    return T


def main():
    for name, _desc, fn in TRACES:
        T = fn()
        T.write(os.path.join(OUT, name))
    print("wrote %d traces" % len(TRACES))


if __name__ == "__main__":
    main()
