import SystemLayer
/// The one HTML escaping helper: every string that reaches an HTML report goes through it.
package enum HTMLEscape {
    /// Escapes text for HTML element content and quoted attribute values (also inside inline SVG).
    ///
    /// `&`, `<`, `>`, `"` and `'` become character references; control characters other than
    /// tab and newline (and the C1 range) become U+FFFD, so trace text can neither open a tag,
    /// close an attribute, nor smuggle terminal escapes into a copied report.
    package static func text(_ s: String) -> String {
        var o = ""
        o.reserveCapacity(s.utf8.count + 8)
        for u in s.unicodeScalars {
            switch u {
            case "&": o += "&amp;"
            case "<": o += "&lt;"
            case ">": o += "&gt;"
            case "\"": o += "&quot;"
            case "'": o += "&#39;"
            case "\t", "\n": o.unicodeScalars.append(u)
            case _ where PathName.rawByte(u) != nil:
                // A byte of a file name that is not UTF-8 (SystemLayer's PathName), shown as \xNN.
                o += PathName.displayed(String(u))
            default:
                let v = u.value
                if v < 0x20 || v == 0x7F || (0x80..<0xA0).contains(v) || (0xFFFE...0xFFFF).contains(v) {
                    o += "\u{FFFD}"
                } else {
                    o.unicodeScalars.append(u)
                }
            }
        }
        return o
    }

    /// Escapes a value for an `id` or `href="#…"` fragment: only `[A-Za-z0-9_-]` survive, others become `_`.
    package static func identifier(_ s: String) -> String {
        var o = ""
        for u in s.unicodeScalars {
            switch u {
            case "a"..."z", "A"..."Z", "0"..."9", "-", "_": o.unicodeScalars.append(u)
            default: o += "_"
            }
        }
        return o
    }
}
