import HLS
import TestSupport
import Testing

/// Edits of a playlist, against a model that does not share the playlist's storage: an array of
/// lines edited one change at a time (replacements, then insertions and removals from the bottom
/// up), which is how the lines were kept before they became spans over the file's bytes; an edit
/// of every line of a tag is made on each line at once, where the playlist makes it when a line is read.
struct PlaylistEditTests {
    /// The model: the lines as an array, edited change by change.
    struct Model {
        var lines: [PlaylistLine]
        let terminator: String

        mutating func apply(replacing: [Int: String], inserting: [Int: [PlaylistLine]], removing: Set<Int>) {
            for (index, text) in replacing { lines[index].text = text }
            var changes: [(line: Int, order: Int, lines: [PlaylistLine]?)] = inserting.map { ($0.key, 0, $0.value) }
            changes += removing.map { ($0, 1, nil) }
            for change in changes.sorted(by: { ($0.line, $0.order) > ($1.line, $1.order) }) {
                guard var new = change.lines else {
                    lines.remove(at: change.line)
                    continue
                }
                guard !new.isEmpty else { continue }
                if change.line == lines.count, let last = lines.indices.last, lines[last].terminator.isEmpty {
                    lines[last].terminator = terminator
                    new[new.count - 1].terminator = ""
                }
                lines.insert(contentsOf: new, at: change.line)
            }
        }

        /// Rewrites every line of `tag` now, as an edit of each line would.
        mutating func rewrite(_ tag: String, _ edits: [AttributeEdit]) {
            for index in lines.indices {
                guard case .tag(let name, let value) = lines[index].kind, name == tag, let list = try? AttributeList(parsing: value ?? "") else { continue }
                let edited = list.applying(edits)
                if edited != list { lines[index].text = "\(name):\(edited.text)" }
            }
        }

        /// Rewrites every URI line now, as an edit of each line would.
        mutating func rewriteURIs(_ rewriter: Prefixing) {
            for index in lines.indices {
                guard case .uri(let uri) = lines[index].kind, let new = rewriter.rewrittenURI(String(uri)) else { continue }
                lines[index].text = new
            }
        }

        var bytes: [UInt8] { lines.flatMap { Array(($0.text + $0.terminator).utf8) } }
    }

    /// Puts a prefix before URIs that do not start with `b`.
    struct Prefixing: URIRewriting {
        let prefix: String
        func rewrittenURI(_ uri: String) -> String? { uri.hasPrefix("b") ? nil : prefix + uri }
    }

    /// A random playlist: mixed line endings, blank lines, comments, non-ASCII text, with or
    /// without a final newline.
    static func randomText(_ rng: inout SeededGenerator) -> String {
        let pieces = [
            "#EXT-X-STREAM-INF:BANDWIDTH=1", "#EXT-X-STREAM-INF:BANDWIDTH=2,SUBTITLES=\"s\"", "#EXT-X-STREAM-INF", "a.m3u8", "", "# comment",
            "#EXT-X-MEDIA:TYPE=SUBTITLES,NAME=\"Français\"", "  ", "b.m3u8",
        ]
        var text = "#EXTM3U" + (Bool.random(using: &rng) ? "\r\n" : "\n")
        for _ in 0..<Int.random(in: 0...12, using: &rng) {
            text += pieces.randomElement(using: &rng) ?? ""
            text += ["\n", "\r\n", "\n"].randomElement(using: &rng) ?? "\n"
        }
        if Bool.random(using: &rng) { text += "tail.m3u8" }
        return text
    }

    @Test func editsMatchTheModelOnRandomPlaylists() throws {
        var rng = SeededGenerator(seed: 8216)
        for trial in 0..<3000 {
            var playlist = try Playlist(parsing: Self.randomText(&rng), source: "t")
            var model = Model(lines: Array(playlist.lines), terminator: playlist.preferredTerminator)
            // Two rounds: the second edits lines the first added or replaced.
            for _ in 0..<2 {
                let count = playlist.lines.count
                guard count > 0 else { break }
                var replacing: [Int: String] = [:]
                var inserting: [Int: [PlaylistLine]] = [:]
                var removing: Set<Int> = []
                for _ in 0..<Int.random(in: 0...4, using: &rng) {
                    let line = Int.random(in: 0..<count, using: &rng)
                    switch Int.random(in: 0..<3, using: &rng) {
                    case 0: replacing[line] = "#EXT-REPLACED:\(trial)"
                    case 1: removing.insert(line)
                    default:
                        let at = Int.random(in: 0...count, using: &rng)
                        inserting[at, default: []] += (0..<Int.random(in: 0...2, using: &rng)).map { playlist.makeLine("#EXT-NEW:\($0)") }
                    }
                }
                if Bool.random(using: &rng) {
                    let choices: [AttributeEdit] = [
                        .set("SUBTITLES", .quoted("subs"), order: AttributeOrder.streamInf),
                        .setIfAbsent("CLOSED-CAPTIONS", .enumerated("NONE"), order: AttributeOrder.streamInf),
                        .remove("BANDWIDTH"), .removeUnlessQuoted("SUBTITLES", kept: ["s"]),
                    ]
                    let edits = (0..<Int.random(in: 1...3, using: &rng)).compactMap { _ in choices.randomElement(using: &rng) }
                    playlist.rewriteTags(TagName.streamInf, edits)
                    model.rewrite(TagName.streamInf, edits)
                }
                if Int.random(in: 0..<3, using: &rng) == 0 {
                    let rewriter = Prefixing(prefix: ["../", "https://cdn.example/"].randomElement(using: &rng) ?? "")
                    playlist.rewriteURIs(rewriter)
                    model.rewriteURIs(rewriter)
                }
                playlist.edit(replacing: replacing, inserting: inserting, removing: removing)
                model.apply(replacing: replacing, inserting: inserting, removing: removing)
                #expect(Array(playlist.lines) == model.lines, "trial \(trial)")
                #expect(Array(playlist.text.utf8) == model.bytes, "trial \(trial)")
                var written: [UInt8] = []
                playlist.write { written.append(contentsOf: $0) }
                #expect(written == model.bytes, "trial \(trial)")
                for index in playlist.lines.indices {
                    #expect(playlist.number(ofLine: index) == model.lines[index].number)
                }
            }
        }
    }

    @Test func unchangedPlaylistsRoundTripThroughWrite() throws {
        var rng = SeededGenerator(seed: 4)
        for _ in 0..<500 {
            let text = Self.randomText(&rng)
            let playlist = try Playlist(parsing: text, source: "t")
            var written: [UInt8] = []
            playlist.write { written.append(contentsOf: $0) }
            #expect(written == Array(text.utf8))
            #expect(Array(playlist.lines).map { $0.text + $0.terminator }.joined() == text)
        }
    }

    /// What a line is, by characters (RFC 8216bis §4.1), as the line's kind was found before it
    /// was found on bytes for ASCII lines.
    static func modelKind(_ text: String) -> PlaylistLine.Kind {
        var content = text.first == "\u{FEFF}" ? text.dropFirst() : Substring(text)
        while let last = content.last, last == " " || last == "\t" || last == "\r" { content = content.dropLast() }
        if content.allSatisfy({ $0 == " " || $0 == "\t" }) { return .blank }
        if content.hasPrefix("#EXT") {
            guard let colon = content.firstIndex(of: ":") else { return .tag(name: String(content), value: nil) }
            return .tag(name: String(content[..<colon]), value: content[content.index(after: colon)...])
        }
        if content.hasPrefix("#") { return .comment }
        while let first = content.first, first == " " || first == "\t" { content = content.dropFirst() }
        return .uri(content)
    }

    @Test func kindMatchesTheCharacterModel() {
        var rng = SeededGenerator(seed: 41)
        // Combining marks (U+0301), a prepended mark (U+0600), a joiner, a singleton canonical
        // equivalent of an ASCII letter (U+212A KELVIN SIGN is K), a byte order mark.
        let alphabet: [String] = [
            " ", "\t", "\r", "#", "#EXT", "E", "X", "T", ":", "=", "a", "é", "\u{FEFF}", "\u{301}", "\u{600}", "\u{200D}", "\u{212A}", "日",
        ]
        for _ in 0..<60000 {
            let text = (0..<Int.random(in: 0...8, using: &rng)).map { _ in alphabet.randomElement(using: &rng) ?? "" }.joined()
            let line = PlaylistLine(text: text, terminator: "\n", number: 1)
            #expect(line.kind == Self.modelKind(text), "\(Array(text.unicodeScalars))")
        }
    }
}
