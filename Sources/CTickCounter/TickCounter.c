#include "CTickCounter.h"

#if defined(__x86_64__)
#include <cpuid.h>
#endif

int rtc_tick_counter_invariant(void) {
#if defined(__x86_64__)
    unsigned int eax = 0, ebx = 0, ecx = 0, edx = 0;
    if (__get_cpuid_max(0x80000000, 0) < 0x80000007) return 0;
    __cpuid(0x80000007, eax, ebx, ecx, edx);
    return (edx >> 8) & 1;
#elif defined(__aarch64__)
    return 1;
#else
    return 0;
#endif
}
