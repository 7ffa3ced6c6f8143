// The record vocabulary (routes, targets, device kinds, quality samples, headers, checkpoints…) comes
// with the recorder: an SDK writes `import TraceRecorder` and nothing else. TraceModel holds the
// records and their encoding only, no reader, decoder or contract catalogue.
@_exported import TraceModel
// The compressor interface, for an SDK that passes its own zstd (`RecorderConfiguration.compression`).
@_exported import TraceFrames
