// Drives the engines over a trace.
