#ifndef RTCTRACE_CFUZZER_H
#define RTCTRACE_CFUZZER_H
#include <stddef.h>
#include <stdint.h>

/// libFuzzer's driver, for executables that have their own main (SwiftPM renames an
/// executable's entry point, so libFuzzer's main cannot be used directly).
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
