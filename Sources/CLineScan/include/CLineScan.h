// The structural check of a JSON line in the way of a vectorised JSON parser's first stage: bitmasks of
// quotes, backslashes, brackets and odd bytes per 64-byte block, strings found by a prefix XOR of the
// unescaped quotes, brackets followed by their set bits. No libc, no allocation, no state between calls.
#ifndef RTCTRACE_CLINESCAN_H
#define RTCTRACE_CLINESCAN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The ways of building a block's bitmasks.
enum {
    /// Eight bytes at a time in a machine word, in plain C: every CPU.
    RTC_SCAN_PORTABLE = 0,
    /// 16-byte SSE2 vectors (every x86-64 CPU).
    RTC_SCAN_SSE2 = 1,
    /// 32-byte AVX2 vectors (x86-64 CPUs that have them, checked at run time).
    RTC_SCAN_AVX2 = 2,
};

/// Result of a scan: the line closes its object, it does not, or the scan leaves it to the caller's
/// byte loop (a backslash outside a string, which that loop defines; never on a line a writer makes).
enum {
    RTC_SCAN_OPEN = 0,
    RTC_SCAN_CLOSES = 1,
    RTC_SCAN_UNDECIDED = -1,
    /// The kernel asked for does not run on this CPU or architecture.
    RTC_SCAN_UNAVAILABLE = -2,
};

/// The fastest kernel this CPU runs (decided once).
int rtc_scan_best_kernel(void);

/// Whether `count` bytes at `bytes`, which start inside a JSON object (depth 1) outside any string, close
/// that object exactly once with only spaces, tabs and carriage returns after it: strings end and hold no
/// control byte, `{}` and `[]` nest at most 64 deep, every byte is ASCII. With the best kernel.
int rtc_scan_closes_object(const uint8_t *bytes, size_t count);

/// The same with a given kernel (`RTC_SCAN_UNAVAILABLE` where it cannot run): for tests and benchmarks.
int rtc_scan_closes_object_with(int kernel, const uint8_t *bytes, size_t count);

#ifdef __cplusplus
}
#endif

#endif
