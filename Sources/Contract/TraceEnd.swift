/// How a trace ended: at its last record, or at a crash (its last frame torn, or never closed). Every
/// statement "at the end of the trace" says which.
@usableFromInline package enum TraceEnd: Sendable {
    case end, crash
}
