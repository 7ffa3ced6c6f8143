import Foundation
import XCTest

/// Headless Chromium driven over the DevTools protocol, for the report's browser tests: a plan of
/// steps (open a page, evaluate JavaScript, dispatch real wheel, key and mouse events, turn scripts
/// off, take a screenshot) runs in one browser, and each step's result comes back as JSON.
///
/// The protocol runs on a pipe (`--remote-debugging-pipe`, file descriptors 3 and 4), spoken by a
/// small Python program that uses only the standard library (python3 and chromium come with
/// `make test-deps`; nothing is installed here).
struct HeadlessBrowser {
    /// One step of a plan.
    enum Step {
        /// Navigates and waits until the page has loaded and `until` (JavaScript) is true.
        case open(String, until: String = "document.documentElement.getAttribute('data-report-ready') === '1'")
        /// Evaluates JavaScript; the result is its value.
        case eval(String)
        /// A mouse wheel at the point `at` (JavaScript giving `[x, y]` in CSS pixels), with Ctrl held or not.
        case wheel(at: String, dy: Double, dx: Double = 0, ctrl: Bool = false, shift: Bool = false)
        /// A key press (`key` as in KeyboardEvent.key; `code` and `vk` for keys without text).
        case key(String, code: String = "", vk: Int = 0)
        /// Moves the pointer to `at`.
        case move(at: String)
        /// Presses at `at`, drags `by` pixels sideways in ten moves, releases.
        case drag(at: String, by: Double)
        /// A click at `at`.
        case click(at: String)
        /// A double click at `at`.
        case doubleClick(at: String)
        /// Turns the page's scripts off (before `open`).
        case scriptsOff
        /// A PNG of the page (all of it, or `clip`: JavaScript giving `[x, y, width, height]` in page pixels).
        case screenshot(path: String, clip: String? = nil)

        var json: [String: Any] {
            switch self {
            case let .open(url, until): ["op": "open", "url": url, "until": until]
            case .eval(let js): ["op": "eval", "js": js]
            case let .wheel(at, dy, dx, ctrl, shift): ["op": "wheel", "at": at, "dy": dy, "dx": dx, "ctrl": ctrl, "shift": shift]
            case let .key(key, code, vk): ["op": "key", "key": key, "code": code, "vk": vk]
            case .move(let at): ["op": "move", "at": at]
            case let .drag(at, by): ["op": "drag", "at": at, "by": by]
            case .click(let at): ["op": "click", "at": at]
            case .doubleClick(let at): ["op": "dblclick", "at": at]
            case .scriptsOff: ["op": "noscript"]
            case let .screenshot(path, clip): clip.map { ["op": "shot", "path": path, "clip": $0] } ?? ["op": "shot", "path": path]
            }
        }
    }

    /// The browser's executable.
    let exe: String

    /// Chromium (or Chrome) on the PATH; nil when there is none.
    static func find() -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for name in ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"] {
            for dir in path.split(separator: ":") where FileManager.default.isExecutableFile(atPath: "\(dir)/\(name)") {
                return "\(dir)/\(name)"
            }
        }
        return nil
    }

    /// The browser, or a test failure that says how to get one (`make test-deps`).
    static func required(file: StaticString = #filePath, line: UInt = #line) throws -> HeadlessBrowser {
        guard let exe = find() else {
            XCTFail("no Chromium on the PATH: `make test-deps` installs it", file: file, line: line)
            throw CocoaError(.fileNoSuchFile)
        }
        return HeadlessBrowser(exe: exe)
    }

    /// The URL of a local file, with an optional fragment.
    static func url(_ path: String, _ fragment: String = "") -> String {
        URL(fileURLWithPath: path).absoluteString + fragment
    }

    /// Runs the steps in one fresh browser (window `width` × `height`); returns each step's result.
    /// The time limit only guards against a browser that hangs; it never measures speed.
    func run(_ steps: [Step], width: Int = 1400, height: Int = 1000) throws -> [Any] {
        let dir = Fixtures.tempDir("browser")
        let plan: [String: Any] = ["profile": dir + "/profile", "width": width, "height": height, "timeout": 540,
                                   "steps": steps.map(\.json)]
        try JSONSerialization.data(withJSONObject: plan).write(to: URL(fileURLWithPath: dir + "/plan.json"))
        try Self.driver.write(toFile: dir + "/driver.py", atomically: true, encoding: .utf8)
        let r = runProcess("/usr/bin/env", ["python3", dir + "/driver.py", exe, dir + "/plan.json"], timeout: 600)
        XCTAssertFalse(r.timedOut, "the browser hung: no answer within 10 minutes")
        let out = String(decoding: r.out, as: UTF8.self)
        guard r.status == 0, let results = try JSONSerialization.jsonObject(with: Data(out.utf8), options: [.fragmentsAllowed]) as? [Any] else {
            XCTFail("the browser plan failed (\(r.status)): \(out.suffix(2000)) \(String(decoding: r.err, as: UTF8.self).suffix(2000))")
            throw CocoaError(.fileReadCorruptFile)
        }
        return results
    }

    /// JavaScript that waits until the events a step queued (a hash change, a paint) have run.
    static let settle = "new Promise(function (ok) { setTimeout(function () { requestAnimationFrame(function () { ok(true); }); }, 50); })"

    /// JavaScript giving the centre of the first element matching `selector` (in CSS pixels of the viewport).
    static func centre(_ selector: String) -> String {
        "(function () { var r = document.querySelector(\(jsString(selector))).getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; })()"
    }

    /// A JavaScript string literal.
    static func jsString(_ s: String) -> String {
        String(decoding: try! JSONSerialization.data(withJSONObject: [s]), as: UTF8.self).dropFirst().dropLast().description
    }

    static let driver = #"""
# Drives headless Chromium over the DevTools protocol on a pipe (stdlib only): runs the steps of a
# plan (open a page, evaluate JavaScript, dispatch real wheel, key and mouse events, take a
# screenshot) and prints one JSON result per step.
import base64, json, os, signal, subprocess, sys, time

chrome, plan_path = sys.argv[1], sys.argv[2]
plan = json.load(open(plan_path))
signal.alarm(int(plan.get("timeout", 300)))
to_chrome_r, to_chrome_w = os.pipe()
from_chrome_r, from_chrome_w = os.pipe()

def child():
    a, b = os.dup(to_chrome_r), os.dup(from_chrome_w)
    os.dup2(a, 3); os.dup2(b, 4)
    os.set_inheritable(3, True); os.set_inheritable(4, True)

args = [chrome, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
        "--remote-debugging-pipe", "--user-data-dir=" + plan["profile"], "about:blank"]
proc = subprocess.Popen(args, close_fds=False, preexec_fn=child, stdin=subprocess.DEVNULL,
                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
os.close(to_chrome_r); os.close(from_chrome_w)
buf = b""
next_id = 0
session = None

def call(method, params=None):
    global next_id, buf
    next_id += 1
    msg = {"id": next_id, "method": method, "params": params or {}}
    if session and not method.startswith("Target.") and not method.startswith("Browser."):
        msg["sessionId"] = session
    os.write(to_chrome_w, json.dumps(msg).encode() + b"\0")
    while True:
        while b"\0" not in buf:
            chunk = os.read(from_chrome_r, 1 << 20)
            if not chunk:
                raise SystemExit("the browser closed the pipe")
            buf += chunk
        line, buf = buf.split(b"\0", 1)
        m = json.loads(line)
        if m.get("id") == next_id:
            if "error" in m:
                raise SystemExit(method + ": " + json.dumps(m["error"]))
            return m.get("result", {})

def evaluate(js):
    r = call("Runtime.evaluate", {"expression": js, "returnByValue": True, "awaitPromise": True})
    if "exceptionDetails" in r:
        raise SystemExit("script error: " + json.dumps(r["exceptionDetails"])[:2000])
    return r.get("result", {}).get("value")

def point(step):
    at = step.get("at")
    return evaluate(at) if isinstance(at, str) else at

target = call("Target.createTarget", {"url": "about:blank"})["targetId"]
session = call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
call("Emulation.setDeviceMetricsOverride", {"width": plan.get("width", 1400), "height": plan.get("height", 1000),
                                            "deviceScaleFactor": 1, "mobile": False})
results = []
for step in plan["steps"]:
    op = step["op"]
    if op == "noscript":
        call("Emulation.setScriptExecutionDisabled", {"value": True})
        results.append(True)
    elif op == "open":
        call("Page.navigate", {"url": step["url"]})
        deadline = time.time() + 120
        while evaluate("document.readyState") != "complete" or not evaluate(step.get("until", "true")):
            if time.time() > deadline:
                raise SystemExit("the page did not load: " + step["url"])
            time.sleep(0.05)
        results.append(True)
    elif op == "eval":
        results.append(evaluate(step["js"]))
    elif op in ("wheel", "move", "click", "dblclick", "drag"):
        x, y = point(step)
        mods = 2 if step.get("ctrl") else 0
        mods |= 8 if step.get("shift") else 0
        call("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": x, "y": y})
        if op == "wheel":
            call("Input.dispatchMouseEvent", {"type": "mouseWheel", "x": x, "y": y, "deltaX": step.get("dx", 0),
                                              "deltaY": step.get("dy", 0), "modifiers": mods})
        elif op in ("click", "dblclick"):
            for n in ([1] if op == "click" else [1, 2]):
                call("Input.dispatchMouseEvent", {"type": "mousePressed", "x": x, "y": y, "button": "left", "clickCount": n, "modifiers": mods})
                call("Input.dispatchMouseEvent", {"type": "mouseReleased", "x": x, "y": y, "button": "left", "clickCount": n, "modifiers": mods})
        elif op == "drag":
            dx = step["by"]
            call("Input.dispatchMouseEvent", {"type": "mousePressed", "x": x, "y": y, "button": "left", "clickCount": 1})
            for i in range(1, 11):
                call("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": x + dx * i / 10, "y": y, "button": "left", "buttons": 1})
            call("Input.dispatchMouseEvent", {"type": "mouseReleased", "x": x + dx, "y": y, "button": "left", "clickCount": 1})
        results.append([x, y])
    elif op == "key":
        key = step["key"]
        base = {"key": key, "code": step.get("code", ""), "windowsVirtualKeyCode": step.get("vk", 0)}
        down = dict(base, type="keyDown")
        if len(key) == 1:
            down["text"] = key
        call("Input.dispatchKeyEvent", down)
        call("Input.dispatchKeyEvent", dict(base, type="keyUp"))
        results.append(key)
    elif op == "shot":
        params = {"format": "png", "captureBeyondViewport": True}
        if "clip" in step:
            x, y, w, h = evaluate(step["clip"]) if isinstance(step["clip"], str) else step["clip"]
            params["clip"] = {"x": x, "y": y, "width": w, "height": h, "scale": 1}
        data = base64.b64decode(call("Page.captureScreenshot", params)["data"])
        with open(step["path"], "wb") as f:
            f.write(data)
        results.append(len(data))
    else:
        raise SystemExit("unknown step " + op)
try:
    call("Browser.close")
except SystemExit:
    pass
proc.wait(timeout=30)
print(json.dumps(results))
"""#
}
