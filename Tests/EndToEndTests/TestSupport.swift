// Every file of this target sees the shared test support (Tests/TestSupport: processes, fixtures,
// the trace builder, the test store) without importing it.
@_exported import TestSupport
