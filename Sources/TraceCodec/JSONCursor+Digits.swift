/// Decimal digits read from a machine word: the decoder's fast paths spend much of a line on numbers (seq,
/// t, six per quality sample), most of them a few digits long and ending within the eight bytes at their
/// start, which a byte loop reads at a dozen instructions a digit and a word at about twenty in all.
extension JSONCursor {
    /// Accumulates the decimal digits from `start` into `value` (wrapping: callers bound the digit count);
    /// returns the position after the last digit.
    @inline(__always)
    static func digits(_ base: UnsafePointer<UInt8>, from start: Int, to e: Int, into value: inout UInt64) -> Int {
        var p = start
        while p < e {
            let d = base[p] &- 0x30
            if d >= 10 { break }
            value = value &* 10 &+ UInt64(d)
            p += 1
        }
        return p
    }

    /// The eight bytes at `p` as a word (the first in its lowest byte, on the little-endian machines the project
    /// runs on, as `literal` and the readers below assume), unaligned. Not transparent: optimized on its own
    /// first, it comes inlined whole as one load into the transparent number readers, however large the
    /// function they are inlined into has grown (where the library's generic load, met there, can stay a call).
    @inline(__always)
    static func word(at p: UnsafePointer<UInt8>) -> UInt64 {
        UnsafeRawPointer(p).loadUnaligned(as: UInt64.self)
    }

    /// The flags (0x80) of the bytes of `x` (bytes XOR "0") that are not digits, exact up to and including the
    /// first: a byte is a digit when x < 10 there, so x + 0x76 stays below 0x80; carries only run upwards.
    @inline(__always)
    static func nonDigits(_ x: UInt64) -> UInt64 {
        ((x &+ 0x7676_7676_7676_7676) | x) & 0x8080_8080_8080_8080
    }

    /// How many of the eight bytes of `w` (the first byte in its lowest) are leading decimal digits, and
    /// their value.
    @inline(__always)
    static func leadingDigits(_ w: UInt64) -> (count: Int, value: UInt64) {
        let x = w ^ 0x3030_3030_3030_3030
        let other = nonDigits(x)
        let k = other == 0 ? 8 : other.trailingZeroBitCount / 8
        guard k > 0 else { return (0, 0) }
        // Shifts and sums that wrap: every amount here is below 64 (k is 1–8, and 8 only where nothing is masked).
        return (k, eightDigits(k == 8 ? x : (x & ((1 &<< UInt64(8 &* k)) &- 1)) &<< UInt64(8 &* (8 &- k))))
    }

    /// A number in the writers' plain form (digits without a leading zero, optionally a dot and digits)
    /// that ends within the eight bytes `w` at its start: its length in bytes, its digits as one integer
    /// and how many of them follow the dot. Nil where the word does not settle it (eight digits or more,
    /// no digit, a leading zero, a dot without digits), which the byte loop then reads. Transparent, as
    /// `fastDouble` is: inlined into every reader of a number whatever its size.
    @_transparent
    static func shortNumber(_ w: UInt64) -> (length: Int, mantissa: UInt64, fracDigits: Int)? {
        let x = w ^ 0x3030_3030_3030_3030
        let other = nonDigits(x)
        guard other != 0 else { return nil }
        let k = other.trailingZeroBitCount / 8
        guard k > 0, k == 1 || x & 0xFF != 0 else { return nil }
        // Shifts and sums that wrap: k is 1–7 and n below, so every amount is below 64.
        let low = (UInt64(1) &<< UInt64(8 &* k)) &- 1
        // Not a dot after the integer digits: an integer.
        guard (x &>> UInt64(8 &* k)) & 0xFF == UInt64(UInt8(ascii: ".") ^ 0x30) else {
            return (k, eightDigits((x & low) &<< UInt64(8 &* (8 &- k))), 0)
        }
        // The dot taken out (the bytes after it moved down one): the digits on both sides as one run, which
        // must end before the word's last byte (the zero shifted in there reads as a digit).
        let joined = (x & low) | ((x >> 8) & ~low)
        let after = nonDigits(joined)
        let n = after == 0 ? 8 : after.trailingZeroBitCount / 8
        guard n > k, n <= 6 else { return nil }
        return (n &+ 1, eightDigits((joined & ((UInt64(1) &<< UInt64(8 &* n)) &- 1)) &<< UInt64(8 &* (8 &- n))), n &- k)
    }

    /// The value of eight digits 0–9, one per byte, the first in the lowest byte.
    @inline(__always)
    static func eightDigits(_ x: UInt64) -> UInt64 {
        let pairs = ((x &* 10) &+ (x >> 8)) & 0x00FF_00FF_00FF_00FF
        let quads = ((pairs &* 100) &+ (pairs >> 16)) & 0x0000_FFFF_0000_FFFF
        return ((quads &* 10000) &+ (quads >> 32)) & 0xFFFF_FFFF
    }
}
