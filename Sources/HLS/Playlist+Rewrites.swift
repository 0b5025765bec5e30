/// Edits made when a line is read: a change to the attributes of every line with a tag, and a
/// rewriter of URI lines, each kept once however many lines it changes.
extension Playlist {
    /// A change to the attributes of every line with one tag (see ``rewriteTags(_:_:)``).
    struct TagRewrite: Sendable, Equatable {
        let tag: String
        let edits: [AttributeEdit]
    }

    /// Applies `edits` to the attribute list of every line whose tag is `tag` (such as
    /// `#EXT-X-STREAM-INF`), now and whenever the file's own lines are read later; a line whose
    /// attributes the edits leave as they are keeps its text.
    ///
    /// The edit is kept once, not per line: a change to every one of 200,000 variants costs what
    /// one change costs until the lines are read or written. Lines inserted later are taken as given.
    public mutating func rewriteTags(_ tag: String, _ edits: [AttributeEdit]) {
        let rewrite = TagRewrite(tag: tag, edits: edits)
        rewrites.append(rewrite)
        for index in added.indices { added[index] = Self.rewriting(added[index], [rewrite]) }
    }

    /// `line` with `rewrites` for its tag applied in order.
    static func rewriting(_ line: PlaylistLine, _ rewrites: [TagRewrite]) -> PlaylistLine {
        guard case .tag(let name, _) = line.kind else { return line }
        var line = line
        for rewrite in rewrites where rewrite.tag == name {
            guard case .tag(_, let value) = line.kind, let list = try? AttributeList(parsing: value ?? "") else { continue }
            let edited = list.applying(rewrite.edits)
            guard edited != list else { continue }
            let text = "\(name):\(edited.text)"
            if line.content.trimmingTrailingWhitespace != Substring(text) { line.text = text }
        }
        return line
    }

    /// Rewrites the URI of every URI line (a variant's media playlist) with `rewriter`.
    ///
    /// The rewrite holds now and whenever the file's own lines are read later: a line `rewriter`
    /// gives a new URI for becomes that URI. The rewriter is kept once, not a new line per URI;
    /// lines inserted later are taken as given.
    public mutating func rewriteURIs(_ rewriter: some URIRewriting) {
        uriRewrites.append(rewriter)
        for index in added.indices { added[index] = Self.rewriting(added[index], [rewriter]) }
    }

    /// `line` with `rewriters` applied in order, if it is a URI line.
    static func rewriting(_ line: PlaylistLine, _ rewriters: [any URIRewriting]) -> PlaylistLine {
        var line = line
        for rewriter in rewriters {
            guard case .uri(let uri) = line.kind, let new = rewriter.rewrittenURI(String(uri)), !new.isEmpty else { continue }
            if line.content.trimmingTrailingWhitespace != Substring(new) { line.text = new }
        }
        return line
    }

    /// Whether the file's line `original` may be changed by a rewrite: a URI line when URIs are
    /// rewritten, a line of a tag that is, or a line only its characters can classify.
    func mayBeRewritten(_ original: Int) -> Bool {
        guard let (kind, base) = bytesKind(original) else { return true }
        switch kind {
        case .uri: return !uriRewrites.isEmpty
        case .tag(let name, _): return rewrites.contains { hasText(name, from: base, $0.tag) }
        case .blank, .comment: return false
        }
    }
}
