// What every kernel shares: the masks of a 64-byte block, and the walk over them that follows strings
// and brackets. A kernel only builds the masks (`RTC_DEFINE_SCAN` below makes its line loop).
#ifndef RTCTRACE_SCANBLOCK_H
#define RTCTRACE_SCANBLOCK_H

#include <stddef.h>
#include <stdint.h>
#include "CLineScan.h"

/// One bit per byte of a 64-byte block (bit i is byte i).
typedef struct {
    uint64_t quote;     // "
    uint64_t backslash; // '\'
    uint64_t bracket;   // { } [ ]
    uint64_t opens;     // { [
    uint64_t squares;   // [ ]
    uint64_t odd;       // below 0x20, or 0x80 and above: never inside a string, between tokens only
                        // tab and carriage return (rare enough in trace lines to be told apart later)
} rtc_masks;

/// What a line's walk carries from one block to the next.
typedef struct {
    uint64_t inString;     // all ones when the block starts inside a string
    uint64_t escapedFirst; // 1 when the block's first byte follows an unescaped backslash
    uint64_t arrays;       // bit k: the container at depth k is an array (no bit at depth or above)
    unsigned depth;        // open containers, the line's own object included
} rtc_walk;

/// Bit i set when an odd number of bits at or below i are set: which bytes lie inside a string, given
/// the quotes that open or close one.
static inline uint64_t rtc_prefix_xor(uint64_t x) {
    x ^= x << 1;
    x ^= x << 2;
    x ^= x << 4;
    x ^= x << 8;
    x ^= x << 16;
    x ^= x << 32;
    return x;
}

/// Drops the first `k` bytes of a block's masks (a line's last block is loaded so that it ends with the
/// line; the bytes it shares with the block before are already walked).
static inline void rtc_shift(rtc_masks *m, unsigned k) {
    m->quote >>= k;
    m->backslash >>= k;
    m->bracket >>= k;
    m->opens >>= k;
    m->squares >>= k;
    m->odd >>= k;
}

/// Whether every byte of `p[from..<n]` is a space, tab or carriage return.
static inline int rtc_only_blanks(const uint8_t *p, size_t from, size_t n) {
    for (size_t i = from; i < n; i++) {
        uint8_t b = p[i];
        if (b != 0x20 && b != 0x09 && b != 0x0D) return 0;
    }
    return 1;
}

/// Walks one block (`len` bytes at `p + pos`, masks in `m`): a result when the line is decided here,
/// or 2 to go on with the next block.
/// How a kernel computes `rtc_prefix_xor` (a carry-less multiply where the CPU has one).
typedef uint64_t (*rtc_prefix_xor_fn)(uint64_t);

__attribute__((always_inline)) static inline int rtc_walk_block(rtc_walk *w, const rtc_masks *m, const uint8_t *p, size_t pos,
                                                              size_t len, size_t n, rtc_prefix_xor_fn prefixXor) {
    const uint64_t valid = len >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << len) - 1);
    // Escapes: backslashes are rare in trace lines, so their bits are followed one by one. A backslash
    // escapes the next byte unless it is itself escaped (a run of 2k backslashes escapes nothing after it).
    const uint64_t backslash = m->backslash & valid;
    uint64_t escaped = w->escapedFirst;
    w->escapedFirst = 0;
    for (uint64_t rest = backslash; rest != 0; rest &= rest - 1) {
        unsigned i = (unsigned)__builtin_ctzll(rest);
        if ((escaped >> i) & 1) continue;
        if (i == 63) w->escapedFirst = 1; else escaped |= (uint64_t)1 << (i + 1);
    }
    const uint64_t quotes = m->quote & valid & ~escaped;
    // Inside a string: from an opening quote up to (not including) its closing quote.
    const uint64_t inString = prefixXor(quotes) ^ w->inString;
    w->inString = (uint64_t)((int64_t)inString >> 63);
    // A backslash between tokens is an ordinary byte to the reference loop, not an escape: leave such a
    // line to it. Before that byte both agree, so the first one is always seen here.
    if (backslash & ~inString) return RTC_SCAN_UNDECIDED;
    // The odd bytes that may stand between tokens (tab, carriage return) are picked out one by one:
    // a trace line rarely has any odd byte at all.
    uint64_t bad = 0;
    if (m->odd & valid) {
        uint64_t blank = 0;
        for (uint64_t rest = m->odd & valid; rest != 0; rest &= rest - 1) {
            const unsigned i = (unsigned)__builtin_ctzll(rest);
            const uint8_t b = p[pos + i];
            if (b == 0x09 || b == 0x0D) blank |= (uint64_t)1 << i;
        }
        bad = m->odd & valid & (inString | ~blank);
    }
    const uint64_t brackets = m->bracket & valid & ~inString;
    // A block that only opens and closes objects while no array is open cannot mismatch; when it also
    // cannot close the line's object or nest too deep, its counts are all that matter.
    if ((brackets & m->squares) == 0 && w->arrays == 0) {
        const unsigned opened = (unsigned)__builtin_popcountll(brackets & m->opens);
        const unsigned closed = (unsigned)__builtin_popcountll(brackets) - opened;
        if (w->depth > closed && w->depth + opened <= 64) {
            w->depth = w->depth + opened - closed;
            return bad ? RTC_SCAN_OPEN : 2;
        }
    }
    // Else bracket by bracket, in order, without a branch on which bracket it is (opening and closing
    // alternate unpredictably on trace lines). The slot of a bracket is the depth it opens or closes;
    // depth 0 is the line's own object, whose bit in `arrays` is never set, so a `]` closing it
    // mismatches like any other.
    uint64_t mismatch = 0;
    for (uint64_t rest = brackets; rest != 0; rest &= rest - 1) {
        const unsigned i = (unsigned)__builtin_ctzll(rest);
        const unsigned opens = (unsigned)(m->opens >> i) & 1;
        const uint64_t array = (m->squares >> i) & 1;
        if (opens && w->depth >= 64) return RTC_SCAN_OPEN;
        const unsigned slot = w->depth - 1 + opens;
        mismatch |= (uint64_t)(opens ^ 1) & (((w->arrays >> slot) & 1) ^ array);
        // Opening sets the slot's bit to the container's kind; closing clears it.
        w->arrays = (w->arrays & ~((uint64_t)1 << slot)) | ((array & opens) << slot);
        w->depth = slot + opens;
        if (w->depth == 0) {
            // The object closed: what follows it must be blank; odd bytes after it do not matter here.
            if (mismatch || (bad & (((uint64_t)1 << i) - 1))) return RTC_SCAN_OPEN;
            return rtc_only_blanks(p, pos + i + 1, n) ? RTC_SCAN_CLOSES : RTC_SCAN_OPEN;
        }
    }
    return (bad | mismatch) ? RTC_SCAN_OPEN : 2;
}

/// Defines `static int NAME(const uint8_t *p, size_t n)`, the line loop of a kernel whose mask builder
/// is `BUILD(const uint8_t *block, rtc_masks *out)` (64 readable bytes) and whose prefix XOR is `PXOR`,
/// with function attributes `ATTRS`.
/// A line's last partial block is loaded as the 64 bytes that end the line where the line is that long
/// (never a byte outside it), else copied into a zeroed block.
#define RTC_DEFINE_SCAN(NAME, ATTRS, BUILD, PXOR)                                    \
    ATTRS static int NAME(const uint8_t *p, size_t n) {                              \
        rtc_walk w = {0, 0, 0, 1};                                                   \
        for (size_t pos = 0; pos < n; pos += 64) {                                   \
            rtc_masks m;                                                             \
            size_t len = n - pos;                                                    \
            if (len >= 64) {                                                         \
                len = 64;                                                            \
                BUILD(p + pos, &m);                                                  \
            } else if (n >= 64) {                                                    \
                BUILD(p + n - 64, &m);                                               \
                rtc_shift(&m, (unsigned)(64 - len));                                 \
            } else {                                                                 \
                uint8_t block[64] = {0};                                             \
                for (size_t i = 0; i < len; i++) block[i] = p[pos + i];              \
                BUILD(block, &m);                                                    \
            }                                                                        \
            int r = rtc_walk_block(&w, &m, p, pos, len, n, PXOR);                    \
            if (r != 2) return r;                                                    \
        }                                                                            \
        return RTC_SCAN_OPEN;                                                        \
    }

#endif
