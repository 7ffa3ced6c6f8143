// The portable kernel and the choice of kernel. The x86 kernels live in LineScanX86.c.
#include "ScanBlock.h"

#if defined(__x86_64__) || defined(_M_X64)
#define RTC_X86 1
int rtc_scan_sse2(const uint8_t *p, size_t n);
int rtc_scan_avx2(const uint8_t *p, size_t n);
int rtc_cpu_has_avx2(void);
#endif

#define RTC_ONES 0x0101010101010101ULL
#define RTC_HIGHS 0x8080808080808080ULL
#define RTC_LOW7 0x7F7F7F7F7F7F7F7FULL

/// 0x80 in each byte of `x` that is `c`, else 0 (exact per byte: no carry crosses a byte).
static inline uint64_t rtc_equal(uint64_t x, uint8_t c) {
    const uint64_t y = x ^ (RTC_ONES * c);
    return ~(((y & RTC_LOW7) + RTC_LOW7) | y) & RTC_HIGHS;
}

/// The top bits of the eight bytes of `v` (each 0x80 or 0) as eight bits, byte i as bit i.
static inline uint64_t rtc_pack(uint64_t v) { return ((v >> 7) * 0x0102040810204080ULL) >> 56; }

/// The masks of a block eight bytes at a time in a machine word (any CPU).
static inline void rtc_masks_portable(const uint8_t *b, rtc_masks *m) {
    *m = (rtc_masks){0};
    for (unsigned k = 0; k < 8; k++) {
        uint64_t x;
        __builtin_memcpy(&x, b + 8 * k, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
        x = __builtin_bswap64(x);
#endif
        const uint64_t high = x & RTC_HIGHS;
        // Below 0x20: the low seven bits plus 0x60 stay below 0x80, and the top bit is clear.
        const uint64_t control = ~(((x & RTC_LOW7) + RTC_ONES * 0x60) | x) & RTC_HIGHS;
        // `{` `[` fold to 0x5B and `}` `]` to 0x5D with bit 5 cleared; `[` `]` have bit 5 clear already.
        const uint64_t folded = x & ~(RTC_ONES * 0x20);
        const uint64_t opening = rtc_equal(folded, 0x5B);
        const uint64_t brackets = opening | rtc_equal(folded, 0x5D);
        const unsigned shift = 8 * k;
        m->quote |= rtc_pack(rtc_equal(x, '"')) << shift;
        m->backslash |= rtc_pack(rtc_equal(x, '\\')) << shift;
        m->bracket |= rtc_pack(brackets) << shift;
        m->opens |= rtc_pack(opening) << shift;
        m->squares |= rtc_pack((~x << 2) & RTC_HIGHS) << shift;
        m->odd |= rtc_pack(control | high) << shift;
    }
}

RTC_DEFINE_SCAN(rtc_scan_portable, , rtc_masks_portable, rtc_prefix_xor)

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
