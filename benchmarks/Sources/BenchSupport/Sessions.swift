import SystemLayer
import TraceCodec
import TraceFixtures
import TraceModel

/// The two read-path sessions (`TraceFixtures.BenchSession`) written as traces, as `make bench` and the
/// ratchet of `make test` read them: the same kind and count give the same bytes.
public enum Sessions {
    /// Writes `count` records of the session `kind` to `path` with the writer's defaults; returns the
    /// file's size.
    public static func write(_ kind: BenchSession.Kind, count: Int, to path: String) throws -> Int {
        FileSystem.removeIfPresent(path)
        let w = try TraceWriter(path: path, options: TraceWriter.Options())
        var g = BenchSession(kind)
        for _ in 0..<count { try w.append(g.nextRecord()) }
        try w.close()
        return w.fileSize
    }
}
