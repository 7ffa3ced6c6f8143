import CLineScan

/// The structural check of a line `cat` passes through: strings and nesting only. The reader runs it as a
/// vectorised scan (CLineScan: bitmasks per 64-byte block, SSE2 or AVX2 as the CPU has them, plain C
/// elsewhere); the byte loop here is its definition, which decides the lines the scan leaves to it (a
/// backslash between tokens) and which tests hold every kernel to.
package enum LineStructure {
    /// What checks a line.
    package enum Kernel: String, CaseIterable, Sendable {
        /// The byte loop in Swift, one byte at a time: the definition.
        case reference
        /// The block scan with masks built a byte at a time in C (any CPU).
        case portable
        /// The block scan with 16-byte SSE2 vectors (x86-64).
        case sse2
        /// The block scan with 32-byte AVX2 vectors (x86-64 CPUs that have them).
        case avx2

        var code: Int32 {
            switch self {
            case .reference: -1
            case .portable: Int32(RTC_SCAN_PORTABLE)
            case .sse2: Int32(RTC_SCAN_SSE2)
            case .avx2: Int32(RTC_SCAN_AVX2)
            }
        }
    }

    /// The kernel the reader uses on this CPU.
    package static var standard: Kernel {
        switch rtc_scan_best_kernel() {
        case Int32(RTC_SCAN_AVX2): .avx2
        case Int32(RTC_SCAN_SSE2): .sse2
        default: .portable
        }
    }

    /// Whether `kernel` runs on this CPU.
    package static func runs(_ kernel: Kernel) -> Bool {
        kernel == .reference || rtc_scan_closes_object_with(kernel.code, nil, 0) != Int32(RTC_SCAN_UNAVAILABLE)
    }

    /// Whether `line` from `start` (inside the top-level object, outside any string) closes that object
    /// exactly once, with only whitespace after it: strings end and hold no control characters, `{}` and
    /// `[]` nest (at most 64 deep), and every byte is ASCII (a line with other bytes is left to the
    /// decoder, which validates its UTF-8). With the reader's kernel.
    @inline(__always)
    package static func closesObject(_ line: UnsafeBufferPointer<UInt8>, from start: Int) -> Bool {
        guard let base = line.baseAddress, start <= line.count else { return false }
        switch rtc_scan_closes_object(base + start, line.count - start) {
        case Int32(RTC_SCAN_CLOSES): return true
        case Int32(RTC_SCAN_OPEN): return false
        default: return reference(line, from: start)
        }
    }

    /// `closesObject` with a given kernel (nil where it does not run on this CPU): for tests and `make bench`.
    package static func closesObject(_ line: UnsafeBufferPointer<UInt8>, from start: Int, kernel: Kernel) -> Bool? {
        if kernel == .reference { return reference(line, from: start) }
        guard let base = line.baseAddress, start <= line.count else { return runs(kernel) ? false : nil }
        switch rtc_scan_closes_object_with(kernel.code, base + start, line.count - start) {
        case Int32(RTC_SCAN_CLOSES): return true
        case Int32(RTC_SCAN_OPEN): return false
        case Int32(RTC_SCAN_UNDECIDED): return reference(line, from: start)
        default: return nil
        }
    }

    /// The definition, one byte at a time.
    package static func reference(_ line: UnsafeBufferPointer<UInt8>, from start: Int) -> Bool {
        guard let base = line.baseAddress else { return false }
        let n = line.count
        var stack: UInt64 = 0  // bit k: the container at depth k is an array
        var depth = 1
        var i = start
        var inString = false
        while i < n {
            let b = base[i]
            i += 1
            if inString {
                if b == UInt8(ascii: "\"") { inString = false } else if b == UInt8(ascii: "\\") {
                    guard i < n, base[i] >= 0x20, base[i] < 0x80 else { return false }
                    i += 1
                } else if b < 0x20 || b >= 0x80 { return false }
                continue
            }
            switch b {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                guard depth < 64 else { return false }
                if b == UInt8(ascii: "[") { stack |= 1 << UInt64(depth) } else { stack &= ~(1 << UInt64(depth)) }
                depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                let isArray = stack & (1 << UInt64(depth)) != 0
                // The top level (depth 0) is the record's object, never an array.
                guard (b == UInt8(ascii: "]")) == (isArray && depth > 0) else { return false }
                if depth == 0 {
                    while i < n {
                        let w = base[i]
                        guard w == 0x20 || w == 0x09 || w == 0x0D else { return false }
                        i += 1
                    }
                    return true
                }
            default:
                if (b < 0x20 && b != 0x09 && b != 0x0D) || b >= 0x80 { return false }
            }
        }
        return false
    }
}
