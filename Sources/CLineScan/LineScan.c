// The portable kernel and the choice of kernel. The x86 kernels live in LineScanX86.c.
#include "ScanBlock.h"

#if defined(__x86_64__) || defined(_M_X64)
#define RTC_X86 1
int rtc_scan_sse2(const uint8_t *p, size_t n);
int rtc_scan_avx2(const uint8_t *p, size_t n);
int rtc_cpu_has_avx2(void);
#endif

/// The masks of a block, a byte at a time.
static inline void rtc_masks_portable(const uint8_t *b, rtc_masks *m) {
    uint64_t quote = 0, backslash = 0, bracket = 0, opens = 0, squares = 0, badIn = 0, badOut = 0;
    for (unsigned i = 0; i < 64; i++) {
        const uint8_t c = b[i];
        const uint64_t bit = (uint64_t)1 << i;
        if (c == '"') quote |= bit;
        if (c == '\\') backslash |= bit;
        if ((c & 0xDF) == 0x5B || (c & 0xDF) == 0x5D) bracket |= bit;
        if (c == '{' || c == '[') opens |= bit;
        if (c == '[' || c == ']') squares |= bit;
        if (c < 0x20 || c >= 0x80) badIn |= bit;
        if ((c < 0x20 && c != 0x09 && c != 0x0D) || c >= 0x80) badOut |= bit;
    }
    m->quote = quote;
    m->backslash = backslash;
    m->bracket = bracket;
    m->opens = opens;
    m->squares = squares;
    m->badIn = badIn;
    m->badOut = badOut;
}

RTC_DEFINE_SCAN(rtc_scan_portable, , rtc_masks_portable)

/// The kernel picked for this process; -1 until first asked.
static int rtc_chosen = -1;

int rtc_scan_best_kernel(void) {
    int k = __atomic_load_n(&rtc_chosen, __ATOMIC_RELAXED);
    if (k >= 0) return k;
#ifdef RTC_X86
    k = rtc_cpu_has_avx2() ? RTC_SCAN_AVX2 : RTC_SCAN_SSE2;
#else
    k = RTC_SCAN_PORTABLE;
#endif
    // Every thread that races here computes the same answer.
    __atomic_store_n(&rtc_chosen, k, __ATOMIC_RELAXED);
    return k;
}

int rtc_scan_closes_object_with(int kernel, const uint8_t *bytes, size_t count) {
    switch (kernel) {
    case RTC_SCAN_PORTABLE:
        return rtc_scan_portable(bytes, count);
#ifdef RTC_X86
    case RTC_SCAN_SSE2:
        return rtc_scan_sse2(bytes, count);
    case RTC_SCAN_AVX2:
        return rtc_scan_best_kernel() == RTC_SCAN_AVX2 ? rtc_scan_avx2(bytes, count) : RTC_SCAN_UNAVAILABLE;
#endif
    default:
        return RTC_SCAN_UNAVAILABLE;
    }
}

int rtc_scan_closes_object(const uint8_t *bytes, size_t count) {
#ifdef RTC_X86
    return rtc_scan_best_kernel() == RTC_SCAN_AVX2 ? rtc_scan_avx2(bytes, count) : rtc_scan_sse2(bytes, count);
#else
    return rtc_scan_portable(bytes, count);
#endif
}
