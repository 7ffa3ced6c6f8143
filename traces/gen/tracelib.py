"""Tiny deterministic helpers for writing rtctrace golden traces (Python 3, stdlib only).

A Trace numbers records (seq), keeps t non-decreasing, tracks the actual route so that
obs.routeChanged always carries the correct previousRoute, and generates realistic
srv.qualityReport samples from a fixed-seed RNG.
"""
import json
import random

SDK = {"srtc": "SRTC 4.6.2", "smeeting": "SMeeting 3.2.1"}
# expect.predictedBy's asserted `seq` shares its name with the record's own; held under this key until written.
ASSERTED_SEQ = "asserted-seq"
BUNDLE = {"srtc": "com.example.rtcdemo", "smeeting": "com.example.meet"}

# (score, mos, loss, rtt, jitter, bitrate) ranges per server level
RANGES = {
    "unknown": ((0, 0), (1.0, 1.0), (0.0, 0.0), (0, 0), (0, 0), (0, 0)),
    "excellent": ((90, 99), (4.20, 4.45), (0.0, 0.006), (25, 70), (2, 9), (900, 1500)),
    "good": ((74, 89), (3.75, 4.15), (0.01, 0.03), (80, 160), (10, 25), (600, 1000)),
    "poor": ((38, 62), (2.50, 3.30), (0.06, 0.16), (260, 480), (35, 80), (180, 420)),
    "lost": ((0, 14), (1.00, 1.60), (0.35, 0.95), (1100, 2900), (120, 400), (0, 60)),
}


class Trace:
    def __init__(self, layer, seed=1, model="iPhone15,2", os="iOS 17.4", simulator=False,
                 mic_usage=True, background_audio=True, started="2026-11-29T10:00:00Z",
                 initial_default=None, bundle=None, sdk=None):
        self.layer = layer
        self.recs = []
        self.rng = random.Random(seed)
        self.actual = None  # last actual route (None: nothing observed yet)
        hdr = {"format": "rtctrace", "version": 1, "layer": layer, "sdk": sdk or SDK[layer],
               "device": {"model": model, "os": os, "simulator": simulator},
               "app": {"bundleId": bundle or BUNDLE[layer], "micUsageDescription": mic_usage,
                       "backgroundAudio": background_audio},
               "startedAt": started}
        if initial_default:
            hdr["initialDefaultRoute"] = initial_default
        self.bg = []          # scheduled background records: (t, n, kind, payload)
        self._n = 0
        self.sdk_quality = False   # emit sdk.qualityChanged like a correct SDK
        self.sdk_speakers = False  # emit sdk.activeSpeakers like a correct SDK
        self.baseline = "unknown"
        self.conn = "connecting"
        self.spk = {}
        self.changes = []  # derived level changes (previous, overall), Q1/Q2/Q4
        self.rec(0, "trace.header", **hdr)

    # -- raw records -------------------------------------------------------
    def rec(self, t, type, **fields):
        self.flush(t)
        return self._append(t, type, fields)

    def flush(self, t):
        """Emit every scheduled background record due at or before t."""
        while self.bg:
            self.bg.sort(key=lambda b: (b[0], b[1]))
            bt, _, kind, payload = self.bg[0]
            if bt > t:
                break
            self.bg.pop(0)
            if kind == "q":
                lv = payload(bt)
                if lv is not None:
                    self.qreport(bt, lv[0], lv[1])
            elif kind == "call":
                payload(bt)
            elif kind == "raw":
                self._append(bt, payload[0], payload[1])

    def later(self, t, type, **fields):
        self._n += 1
        self.bg.append((t, self._n, "raw", (type, fields)))

    def at(self, t, fn):
        """Schedule fn(t) to run when the trace reaches t (for background activity)."""
        self._n += 1
        self.bg.append((t, self._n, "call", fn))

    def every(self, t0, t1, step, fn):
        """Schedule srv.qualityReport every step ms in [t0, t1); fn(t) -> (pub, sub) or None."""
        t = t0
        while t < t1:
            self._n += 1
            self.bg.append((t, self._n, "q", fn))
            t += step

    def _append(self, t, type, fields):
        if type == "conn.state":
            if fields["state"] == "connected" and self.conn == "reconnecting":
                self.baseline = "unknown"
                self.spk = {}
            self.conn = fields["state"]
        if self.recs:
            assert t >= self.recs[-1]["t"], (type, t, self.recs[-1])
        r = {"seq": len(self.recs), "t": t, "type": type}
        r.update(fields)
        self.recs.append(r)
        return r["seq"]

    def exp(self, t, kind, rule=None, end=False, **fields):
        f = dict(fields)
        if rule:
            f["rule"] = rule
        if end:
            f["at"] = "end"
        return self.rec(t, "expect." + kind, **f)

    def predicted_by(self, t, ref, branch, seq=..., applied_by=..., end=False):
        """expect.predictedBy (X4): `rule` is the asserted branch of R8; `seq` (None: none) is written as a
        second "seq" member after the record's own, as the trace format names it."""
        f = {"ref": ref, "rule": branch}
        if seq is not ...:
            f[ASSERTED_SEQ] = seq
        if applied_by is not ...:
            f["appliedBy"] = applied_by
        if end:
            f["at"] = "end"
        return self.rec(t, "expect.predictedBy", **f)

    @property
    def last_t(self):
        return self.recs[-1]["t"]

    # -- app calls ---------------------------------------------------------
    def enter(self, t, name):
        if self.layer == "srtc":
            return self.rec(t, "api.joinChannel", channel=name)
        return self.rec(t, "api.enterMeeting", room=name)

    def exit(self, t):
        if self.layer == "srtc":
            return self.rec(t, "api.leaveChannel")
        return self.rec(t, "api.exitMeeting")

    def set_route(self, t, target, api=None):
        if api is None:
            if self.layer == "srtc":
                api = "setAudioRoute(.%s)" % target
            else:
                api = "setSpeakerOutputEnabled(%s)" % ("true" if target == "speaker" else "false")
        return self.rec(t, "api.setRoute", target=target, api=api)

    def set_default(self, t, target):
        return self.rec(t, "api.setDefaultRoute", target=target)

    # -- what the SDK did --------------------------------------------------
    def route(self, t, route, reason):
        prev = self.actual or "speaker"
        self.actual = route
        return self.rec(t, "obs.routeChanged", route=route, previousRoute=prev, reason=reason)

    def snapshot(self, t, route, ports=None):
        self.actual = route
        f = {"route": route}
        if ports:
            f["ports"] = ports
        return self.rec(t, "obs.routeSnapshot", **f)

    def activate(self, t, options=("allowBluetooth", "allowBluetoothA2DP"), mode="voiceChat",
                 category="playAndRecord", ok=True, error=None):
        f = {"ok": ok, "category": category, "mode": mode, "options": list(options)}
        if error:
            f["error"] = error
        return self.rec(t, "obs.sessionActivated", **f)

    def deactivate(self, t, notify=True):
        return self.rec(t, "obs.sessionDeactivated", notifyOthers=notify)

    def log(self, t, message, level="info"):
        return self.rec(t, "sdk.log", level=level, message=message)

    # -- server ------------------------------------------------------------
    def sample(self, level):
        r = RANGES[level]
        rnd = self.rng
        return {"level": level,
                "score": rnd.randint(*r[0]),
                "mos": round(rnd.uniform(*r[1]), 2),
                "loss": round(rnd.uniform(*r[2]), 3),
                "rtt": rnd.randint(*r[3]),
                "jitter": rnd.randint(*r[4]),
                "bitrate": rnd.randint(*r[5])}

    def qreport(self, t, pub, sub):
        """Returns (seq, min mos)."""
        self.flush(t)
        p, s = self.sample(pub), self.sample(sub)
        seq = self._append(t, "srv.qualityReport", {"pub": p, "sub": s})
        order = ["unknown", "excellent", "good", "poor", "lost"]
        overall = max(pub, sub, key=order.index)
        if overall != self.baseline:
            self.changes.append((self.baseline, overall))
            if self.sdk_quality:
                self.later(t + 3, "sdk.qualityChanged", overall=overall, previous=self.baseline,
                           mos=min(p["mos"], s["mos"]))
            self.baseline = overall
        return seq, min(p["mos"], s["mos"])

    def speakers(self, t, speaking=(), stopped=()):
        for (u, k, l) in speaking:
            self.spk[(u, k)] = l
        for (u, k) in stopped:
            self.spk.pop((u, k), None)
        if self.sdk_speakers:
            self.later(t + 2, "sdk.activeSpeakers", speakers=self.snapshot_list())
        return self.rec(t, "srv.speakers",
                        speaking=[{"uid": u, "trackId": k, "level": l} for (u, k, l) in speaking],
                        stopped=[{"uid": u, "trackId": k} for (u, k) in stopped])

    def snapshot_list(self):
        items = sorted(self.spk.items(), key=lambda kv: (-kv[1], kv[0][0], kv[0][1]))
        return [{"uid": u, "trackId": k, "level": l} for ((u, k), l) in items]

    # -- common openings and endings ---------------------------------------
    def standard_join(self, t, name, mic="granted", options=("allowBluetooth", "allowBluetoothA2DP"),
                      mode="voiceChat", engine="seaStart", first_route="receiver", connect=True):
        """App joins/enters at t; SDK activates a call session; transport connects ~450 ms later.
        Returns the seq of the join/enter call."""
        self.rec(t - 40, "conn.engine", vendor=engine) if engine else None
        s = self.enter(t, name)
        self.log(t + 3, ("joinChannel %s" if self.layer == "srtc" else "enterMeeting %s") % name)
        self.rec(t + 10, "conn.state", state="connecting")
        if mic:
            self.rec(t + 35, "os.micPermission", status=mic)
        self.activate(t + 60, options=options, mode=mode)
        if first_route:
            self.route(t + 75, first_route, "categoryChange")
        if connect:
            self.later(t + 480, "conn.state", state="connected")
        return s

    def standard_leave(self, t, notify=True):
        s = self.exit(t)
        self.deactivate(t + 40, notify=notify)
        if self.actual not in (None, "speaker", "bluetooth", "headset"):
            self.route(t + 55, "speaker", "categoryChange")
        self.rec(t + 60, "conn.state", state="disconnected")
        return s

    def write(self, path):
        self.flush(self.last_t)
        with open(path, "w") as f:
            for r in self.recs:
                f.write(json.dumps(r, separators=(",", ":")).replace('"%s":' % ASSERTED_SEQ, '"seq":') + "\n")
