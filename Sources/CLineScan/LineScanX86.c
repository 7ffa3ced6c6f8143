// The x86-64 kernels: SSE2 (every x86-64 CPU) and AVX2 (compiled for it by a function attribute, run only
// where the CPU and the operating system support it). Empty elsewhere.
#if defined(__x86_64__) || defined(_M_X64)
#include <cpuid.h>
#include <immintrin.h>
#include "ScanBlock.h"

/// The masks of a block from four 16-byte vectors.
static inline void rtc_masks_sse2(const uint8_t *b, rtc_masks *m) {
    const __m128i quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\');
    const __m128i fold = _mm_set1_epi8((char)0xDF), open = _mm_set1_epi8(0x5B), close = _mm_set1_epi8(0x5D);
    const __m128i lastControl = _mm_set1_epi8(0x1F);
    *m = (rtc_masks){0};
    for (unsigned i = 0; i < 4; i++) {
        const __m128i v = _mm_loadu_si128((const __m128i *)(b + 16 * i));
        const __m128i folded = _mm_and_si128(v, fold);
        // Unsigned v <= 0x1F: min(v, 0x1F) == v. A byte of 0x80 or more has its top bit set already,
        // which is all a movemask reads.
        const __m128i control = _mm_cmpeq_epi8(_mm_min_epu8(v, lastControl), v);
        const unsigned shift = 16 * i;
        m->quote |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v, quote)) << shift;
        m->backslash |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v, backslash)) << shift;
        // `{` and `[` fold to 0x5B, `}` and `]` to 0x5D; `[` and `]` are the brackets folding leaves as they are.
        const __m128i opening = _mm_cmpeq_epi8(folded, open);
        m->bracket |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_or_si128(opening, _mm_cmpeq_epi8(folded, close))) << shift;
        m->opens |= (uint64_t)(uint16_t)_mm_movemask_epi8(opening) << shift;
        m->squares |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(folded, v)) << shift;
        m->odd |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_or_si128(control, v)) << shift;
    }
}

RTC_DEFINE_SCAN(rtc_scan_sse2_lines, , rtc_masks_sse2, rtc_prefix_xor)

int rtc_scan_sse2(const uint8_t *p, size_t n) { return rtc_scan_sse2_lines(p, n); }

#define RTC_AVX2 __attribute__((target("avx2,bmi,popcnt,pclmul")))

/// The masks of a block from two 32-byte vectors.
RTC_AVX2 static inline void rtc_masks_avx2(const uint8_t *b, rtc_masks *m) {
    const __m256i quote = _mm256_set1_epi8('"'), backslash = _mm256_set1_epi8('\\');
    const __m256i fold = _mm256_set1_epi8((char)0xDF), open = _mm256_set1_epi8(0x5B), close = _mm256_set1_epi8(0x5D);
    const __m256i lastControl = _mm256_set1_epi8(0x1F);
    *m = (rtc_masks){0};
    for (unsigned i = 0; i < 2; i++) {
        const __m256i v = _mm256_loadu_si256((const __m256i *)(b + 32 * i));
        const __m256i folded = _mm256_and_si256(v, fold);
        const __m256i control = _mm256_cmpeq_epi8(_mm256_min_epu8(v, lastControl), v);
        const unsigned shift = 32 * i;
        m->quote |= (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(v, quote)) << shift;
        m->backslash |= (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(v, backslash)) << shift;
        const __m256i opening = _mm256_cmpeq_epi8(folded, open);
        m->bracket |= (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_or_si256(opening, _mm256_cmpeq_epi8(folded, close))) << shift;
        m->opens |= (uint64_t)(uint32_t)_mm256_movemask_epi8(opening) << shift;
        m->squares |= (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(folded, v)) << shift;
        m->odd |= (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_or_si256(control, v)) << shift;
    }
}

/// `rtc_prefix_xor` as one carry-less multiply by all ones.
RTC_AVX2 static inline uint64_t rtc_prefix_xor_clmul(uint64_t x) {
    return (uint64_t)_mm_cvtsi128_si64(_mm_clmulepi64_si128(_mm_set_epi64x(0, (long long)x), _mm_set1_epi8((char)0xFF), 0));
}

RTC_DEFINE_SCAN(rtc_scan_avx2_lines, RTC_AVX2, rtc_masks_avx2, rtc_prefix_xor_clmul)

int rtc_scan_avx2(const uint8_t *p, size_t n) { return rtc_scan_avx2_lines(p, n); }

/// Whether the CPU has AVX2 (with the POPCNT, BMI1 and PCLMULQDQ the kernel is compiled for, which every
/// AVX2 CPU has) and the operating system saves the YMM registers (OSXSAVE, XCR0 bits 1–2).
int rtc_cpu_has_avx2(void) {
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d)) return 0;
    if (!(c & bit_OSXSAVE) || !(c & bit_AVX) || !(c & bit_POPCNT) || !(c & bit_PCLMUL)) return 0;
    unsigned lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    if ((lo & 6) != 6) return 0;
    if (__get_cpuid_max(0, 0) < 7) return 0;
    __cpuid_count(7, 0, a, b, c, d);
    return (b & bit_AVX2) != 0 && (b & bit_BMI) != 0;
}
#endif
