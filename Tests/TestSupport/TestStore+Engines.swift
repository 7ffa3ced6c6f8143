import Contract
import QualityEngine
import RouteEngine
import TraceModel

extension RouteEngine: TestableReducer {
    package var layer: Layer { state.layer }

    package static func withoutProse(_ output: RouteOutput) -> RouteOutput {
        guard case .finding(let f) = output else { return output }
        return .finding(f.phrased(message: "", advice: ""))
    }
}

extension QualityEngine: TestableReducer {
    package var layer: Layer { state.layer }

    package static func withoutProse(_ output: QualityOutput) -> QualityOutput {
        guard case .finding(let f) = output else { return output }
        return .finding(f.phrased(message: "", advice: ""))
    }
}

extension TestStore where Engine == RouteEngine {
    /// A store around a route engine with `options`, before any record (send the header first).
    package init(options: RouteEngine.Options = .init()) {
        self.init(engine: RouteEngine(options: options))
    }
}

extension TestStore where Engine == QualityEngine {
    /// A store around a quality engine with `options`, past its header (seq 0, `layer`).
    package init(options: QualityEngine.Options = .init(), layer: Layer = .srtc, file: StaticString = #filePath,
                line: UInt = #line) {
        self.init(engine: QualityEngine(options: options))
        send(0, .header(TraceHeader(layer: layer)), file: file, line: line) { $0.layer = layer }
    }

    // The positional spelling the quality engine's tests are written in: time first, outputs
    // unlabelled. It acts on the store in place, so a `let` store will do.

    /// Sends `body` at `t` with the next seq and asserts the state change and outputs.
    @discardableResult
    package func send(_ t: Int64, _ body: RecordBody, _ outputs: [QualityOutput] = [], file: StaticString = #filePath,
                     line: UInt = #line, _ update: (inout QualityEngine.State) -> Void = { _ in }) -> Int {
        step(t, body, outputs, update, file: file, line: line)
    }

    /// Fires a timer, as the replayer does when its due time comes, and asserts the state change and outputs.
    package func fire(_ timer: QualityTimer, _ outputs: [QualityOutput] = [], file: StaticString = #filePath,
                     line: UInt = #line, _ update: (inout QualityEngine.State) -> Void = { _ in }) {
        fireStep(timer, outputs, update, file: file, line: line)
    }

    /// Ends the trace at `t` after the last record sent and asserts the state change and outputs.
    package func finish(_ t: Int64, _ outputs: [QualityOutput] = [], file: StaticString = #filePath, line: UInt = #line,
                       _ update: (inout QualityEngine.State) -> Void = { _ in }) {
        finishStep(t, outputs, update, file: file, line: line)
    }
}
