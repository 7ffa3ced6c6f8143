import SystemLayer
@_spi(Tools) import TraceCodec
@_spi(Tools) import TraceFixtures
import TraceModel

/// The two read-path sessions (`TraceFixtures.BenchSession`, through the Tools SPI) written as traces, as
/// `make bench` and the ratchet of `make test` read them: the same kind and count give the same bytes.
public enum Sessions {
    /// Writes `count` records of the session named `kind` (`stress`, `healthy`) to `path` with the writer's
    /// defaults; returns the file's size, or nil when `kind` names no session.
    public static func write(_ kind: String, count: Int, to path: String) throws -> Int? {
        guard var g = ToolsBenchSession(kind) else { return nil }
        FileSystem.removeIfPresent(path)
        let w = try ToolsTraceWriter(path: path)
        for _ in 0..<count { try w.append(g.nextRecord()) }
        try w.close()
        return w.fileSize
    }
}
