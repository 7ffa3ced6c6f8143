import Foundation
import TestSupport
import XCTest

/// Sentences live in one place per layer of meaning: a module's `Words/` folder (docs/architecture.md,
/// "Where the words live"). Everywhere else a string literal is code: a name, a key, a format, markup.
final class WordsPlacementTests: XCTestCase {
    /// The string literals of Swift source `text`, comments left out and each interpolation `\(…)` replaced
    /// by a space: (line, text) in the order they appear.
    static func literals(in text: String) -> [(line: Int, text: String)] {
        let s = Array(text.unicodeScalars)
        var out: [(Int, String)] = []
        var i = 0, line = 1
        func at(_ j: Int, _ word: String) -> Bool {
            var k = j
            for scalar in word.unicodeScalars {
                guard k < s.count, s[k] == scalar else { return false }
                k += 1
            }
            return true
        }
        while i < s.count {
            if at(i, "//") {
                while i < s.count && s[i] != "\n" { i += 1 }
                continue
            }
            if at(i, "/*") {
                var depth = 0
                while i < s.count {
                    if at(i, "/*") { depth += 1; i += 2; continue }
                    if at(i, "*/") { depth -= 1; i += 2; if depth == 0 { break } else { continue } }
                    if s[i] == "\n" { line += 1 }
                    i += 1
                }
                continue
            }
            if s[i] == "\n" { line += 1; i += 1; continue }
            // A literal: optional #s (a raw string), then """ or ".
            var j = i, hashes = ""
            while j < s.count && s[j] == "#" { hashes += "#"; j += 1 }
            guard j < s.count, s[j] == "\"" else { i = hashes.isEmpty ? i + 1 : j; continue }
            let quote = at(j, "\"\"\"") ? "\"\"\"" : "\""
            let close = quote + hashes, escape = "\\" + hashes
            i = j + quote.count
            let start = line
            var body = ""
            while i < s.count {
                if at(i, escape + "(") {
                    // An interpolation: skip to its balancing parenthesis, strings inside included.
                    i += escape.count + 1
                    var depth = 1
                    while i < s.count && depth > 0 {
                        if s[i] == "(" { depth += 1 } else if s[i] == ")" { depth -= 1 } else if s[i] == "\n" { line += 1 }
                        else if s[i] == "\"" {
                            i += 1
                            while i < s.count && s[i] != "\"" { if s[i] == "\\" { i += 1 }; i += 1 }
                        }
                        i += 1
                    }
                    body += " "
                    continue
                }
                if at(i, escape) { body += String(String.UnicodeScalarView(s[i..<i + escape.count + 1])); i += escape.count + 1; continue }
                if at(i, close) { i += close.count; break }
                if s[i] == "\n" { line += 1 }
                body.unicodeScalars.append(s[i])
                i += 1
            }
            out.append((start, body))
        }
        return out
    }

    /// Whether a literal's text is a sentence: three or more words of letters in a row (a word may carry an
    /// apostrophe or a hyphen inside, an opening parenthesis or quote before, punctuation after), and no
    /// markup or code around them (an HTML tag, braces, a CSS or JS statement, SQL's capitals).
    static func isSentence(_ text: String) -> Bool {
        let whole = NSRange(text.startIndex..., in: text)
        if code.firstMatch(in: text, range: whole) != nil { return false }
        var run = 0
        for token in text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }) {
            let word = String(token.drop { "('\"“‘".contains($0) })
            let isWord = letters.firstMatch(in: word, range: NSRange(word.startIndex..., in: word)) != nil
            run = isWord ? run + 1 : 0
            if run >= 3 { return true }
        }
        return false
    }

    /// Markup or code: an HTML tag, braces, a statement's semicolon at the end, a SQL statement.
    static let code = try! NSRegularExpression(pattern: #"<[A-Za-z/!]|[{}]|;\s*$|^\s*(SELECT|INSERT|CREATE|WITH)\b"#)
    /// A word of letters, an apostrophe or hyphen inside, punctuation after.
    static let letters = try! NSRegularExpression(pattern: #"^[A-Za-z][a-z]*(['’-][a-z]+)*[,.:;!?)'”’]*$"#)

    /// Whether a literal on this source line is no prose even when it reads as words: an invariant's message
    /// (`precondition`, `assert`, `fatalError`) is for whoever breaks the code, and an enum case's raw value
    /// (`case layerReason = "layer switch reason"`) is a stable name.
    static func isNotProse(_ line: Substring) -> Bool {
        ["preconditionFailure(", "precondition(", "assertionFailure(", "assert(", "fatalError("].contains { line.contains($0) }
            || line.range(of: #"^\s*case \w+ = ""#, options: .regularExpression) != nil
    }

    /// Every sentence literal under Sources/ in the files `inWords` says (inside a `Words/` folder or
    /// outside one): "path:line: text".
    static func sentences(inWords: Bool) throws -> [String] {
        let root = Support.root + "/Sources"
        guard let walker = FileManager.default.enumerator(atPath: root) else { throw CocoaError(.fileNoSuchFile) }
        var out: [String] = []
        for case let path as String in walker where path.hasSuffix(".swift") && path.contains("/Words/") == inWords {
            let text = try String(contentsOfFile: root + "/" + path, encoding: .utf8)
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            for literal in literals(in: text) where isSentence(literal.text) && !isNotProse(lines[literal.line - 1]) {
                out.append("Sources/\(path):\(literal.line): \"\(literal.text.prefix(80))\"")
            }
        }
        return out.sorted()
    }

    /// No module writes a sentence outside its `Words/` folder.
    func test_sentencesLiveInAWordsFolder() throws {
        XCTAssertEqual(try Self.sentences(inWords: false), [], "move each sentence to its module's Words/ folder (docs/architecture.md)")
        // The same scan reads the sentences where they live.
        XCTAssertGreaterThan(try Self.sentences(inWords: true).count, 500)
    }

    /// The detector finds a planted sentence and passes over code, markup and keys.
    func test_theDetectorSeesASentence() {
        let planted = ##"""
        let a = "the route did not change"  // "a comment is not a literal"
        /* "nor is a block comment" */
        let b = "expected a string, found \(describe(byte, "x y z"))"
        let c = #"the app's \#(x) route, re-enabled"#
        let d = """
            a multi-line literal
            speaks here
            """
        """##
        let found = Self.literals(in: planted).filter { Self.isSentence($0.text) }.map(\.line)
        XCTAssertEqual(found, [1, 3, 4, 5])
        for code in ["trace.header", "api.setDefaultAudioRoute", "%d of %d", "<p class=\"x\">the route did</p>",
                     "body { font: 12px sans-serif; }", "function f() { return a }", "SELECT code FROM rows WHERE tag",
                     "--json", "seq", "a b", "ms", "expected 3 got 4", "x.y z.w u.v"] {
            XCTAssertFalse(Self.isSentence(code), code)
        }
        XCTAssertTrue(Self.isNotProse(#"        case layerReason = "layer switch reason""#))
        XCTAssertTrue(Self.isNotProse(#"    preconditionFailure("a record is read from its fields")"#))
        XCTAssertFalse(Self.isNotProse(#"    let reason = "the route did not change""#))
        for prose in ["the route did not change", "expected a string", "Escalate to the SDK team.", "(the app's own call)"] {
            XCTAssertTrue(Self.isSentence(prose), prose)
        }
    }
}
