// The round constants (every CPU), and the compression function with the SHA extensions (SHA256RNDS2,
// SHA256MSG1, SHA256MSG2), compiled for them by a function attribute and run only where the CPU has them.
#include "CSHA256.h"

/// The round constants of FIPS 180-4, four to a vector in round order.
static const uint32_t rtc_sha256_k[64] __attribute__((aligned(16))) = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

const uint32_t *rtc_sha256_constants(void) { return rtc_sha256_k; }

#if defined(__x86_64__) || defined(_M_X64)
#include <cpuid.h>
#include <immintrin.h>

/// 1 or 0 once checked; -1 before.
static int rtc_sha256_checked = -1;

int rtc_sha256_available(void) {
    int known = __atomic_load_n(&rtc_sha256_checked, __ATOMIC_RELAXED);
    if (known >= 0) return known;
    unsigned a, b, c, d;
    int has = 0;
    if (__get_cpuid(1, &a, &b, &c, &d) && (c & bit_SSSE3) && (c & bit_SSE4_1) && __get_cpuid_max(0, 0) >= 7) {
        __cpuid_count(7, 0, a, b, c, d);
        has = (b & bit_SHA) != 0;
    }
    __atomic_store_n(&rtc_sha256_checked, has, __ATOMIC_RELAXED);
    return has;
}

__attribute__((target("sha,sse4.1,ssse3")))
static void rtc_sha256_blocks_shani(uint32_t state[8], const uint8_t *p, size_t blocks) {
    // Big-endian words from the message's bytes.
    const __m128i swap = _mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL);
    // The instructions keep the state as two vectors, (a, b, e, f) and (c, d, g, h), highest lane first.
    __m128i abcd = _mm_loadu_si128((const __m128i *)&state[0]);
    __m128i efgh = _mm_loadu_si128((const __m128i *)&state[4]);
    __m128i badc = _mm_shuffle_epi32(abcd, 0xB1);
    __m128i hgfe = _mm_shuffle_epi32(efgh, 0x1B);
    __m128i abef = _mm_alignr_epi8(badc, hgfe, 8);
    __m128i cdgh = _mm_blend_epi16(hgfe, badc, 0xF0);
    for (; blocks > 0; blocks--, p += 64) {
        const __m128i abef0 = abef, cdgh0 = cdgh;
        __m128i w[16];
        for (int g = 0; g < 16; g++) {
            if (g < 4) {
                w[g] = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p + 16 * g)), swap);
            } else {
                // W[i] = σ1(W[i-2]) + W[i-7] + σ0(W[i-15]) + W[i-16], four at a time.
                const __m128i partial = _mm_add_epi32(_mm_sha256msg1_epu32(w[g - 4], w[g - 3]), _mm_alignr_epi8(w[g - 1], w[g - 2], 4));
                w[g] = _mm_sha256msg2_epu32(partial, w[g - 1]);
            }
            __m128i m = _mm_add_epi32(w[g], _mm_load_si128((const __m128i *)&rtc_sha256_k[4 * g]));
            // Two rounds with the low two words, then two with the high two; each call's result is the
            // next (a, b, e, f) and the one before becomes (c, d, g, h).
            cdgh = _mm_sha256rnds2_epu32(cdgh, abef, m);
            m = _mm_shuffle_epi32(m, 0x0E);
            abef = _mm_sha256rnds2_epu32(abef, cdgh, m);
        }
        abef = _mm_add_epi32(abef, abef0);
        cdgh = _mm_add_epi32(cdgh, cdgh0);
    }
    __m128i feba = _mm_shuffle_epi32(abef, 0x1B);
    __m128i dchg = _mm_shuffle_epi32(cdgh, 0xB1);
    abcd = _mm_blend_epi16(feba, dchg, 0xF0);
    efgh = _mm_alignr_epi8(dchg, feba, 8);
    _mm_storeu_si128((__m128i *)&state[0], abcd);
    _mm_storeu_si128((__m128i *)&state[4], efgh);
}

void rtc_sha256_blocks(uint32_t state[8], const uint8_t *p, size_t blocks) {
    if (rtc_sha256_available()) rtc_sha256_blocks_shani(state, p, blocks);
}

#else

int rtc_sha256_available(void) { return 0; }

void rtc_sha256_blocks(uint32_t state[8], const uint8_t *p, size_t blocks) {
    (void)state;
    (void)p;
    (void)blocks;
}

#endif
