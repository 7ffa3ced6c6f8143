#ifndef CTICKCOUNTER_H
#define CTICKCOUNTER_H

// The processor's own counter of time, read in one instruction: the x86-64 time-stamp counter, the arm64
// virtual counter. No library call (the vDSO's clock_gettime wraps the same counter in a sequence lock, a
// fence and a multiply). Apple systems read theirs through SystemLayer (mach_continuous_time).

#include <stdint.h>

/// The counter now (0 where this processor has none this header reads).
static inline uint64_t rtc_tick_counter(void) {
#if defined(__x86_64__)
    uint32_t lo, hi;
    __asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
    return ((uint64_t)hi << 32) | lo;
#elif defined(__aarch64__)
    uint64_t value;
    __asm__ __volatile__("mrs %0, cntvct_el0" : "=r"(value));
    return value;
#else
    return 0;
#endif
}

/// 1 when the counter runs at one constant rate on every core, whatever the power state (x86-64: the
/// invariant time-stamp counter, CPUID 0x80000007 EDX bit 8; arm64: the architecture's generic timer,
/// always); 0 otherwise, and where the processor has no counter this header reads.
int rtc_tick_counter_invariant(void);

#endif
