// SHA-256's compression function with the x86 SHA extensions, for the hash of whole files (`SHA256.Hasher`
// in TraceModel; its Swift compression is the portable one and the reference a test holds this to).
#ifndef RTCTRACE_CSHA256_H
#define RTCTRACE_CSHA256_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The 64 round constants of FIPS 180-4, in round order (the one table, for the Swift compression too).
const uint32_t *rtc_sha256_constants(void);

/// Whether `rtc_sha256_blocks` runs on this CPU: an x86-64 CPU with the SHA extensions, SSSE3 and SSE4.1
/// (checked once, at the first call); 0 on every other CPU and architecture.
int rtc_sha256_available(void);

/// Compresses `blocks` 64-byte blocks at `p` into the eight state words `state` (a, b, … h, as FIPS 180-4
/// names them). Only where `rtc_sha256_available()` says so; does nothing elsewhere.
void rtc_sha256_blocks(uint32_t state[8], const uint8_t *p, size_t blocks);

#ifdef __cplusplus
}
#endif

#endif
