/// A master (multivariant) playlist: the lossless ``Playlist`` plus views of its variants and
/// renditions.
///
/// The views are parsed once, when the playlist is read and after each ``apply(_:)``, so reading
/// them cannot fail and costs nothing; lines change only through ``apply(_:)``, which keeps every
/// line it does not touch byte for byte.
public struct MasterPlaylist: Sendable, Equatable {
    /// The lines.
    public private(set) var playlist: Playlist
    /// The path or URL the playlist was read from, for messages.
    public let source: String
    /// The variants (`EXT-X-STREAM-INF` and the URI after it), in order.
    public private(set) var variants: [Variant] = []
    /// The `EXT-X-MEDIA` renditions, in order.
    public private(set) var renditions: [Rendition] = []
    /// The `EXT-X-I-FRAME-STREAM-INF` lines, in order.
    public private(set) var iFrameStreams: [IFrameStream] = []

    /// Parses a master playlist; fails with the file and line for anything that is not one.
    public init(parsing bytes: consuming [UInt8], source: String) throws(HLSError) {
        playlist = try Playlist(parsing: consume bytes, source: source)
        self.source = source
        for index in 0..<playlist.count {
            guard case .tag(let name) = playlist.lineClass(index) else { continue }
            if name == TagName.inf || name == TagName.targetDuration {
                throw HLSError(
                    .wrongPlaylistKind, source: source, line: playlist.number(ofLine: index),
                    "\(name) makes this a media playlist; a master playlist (with #EXT-X-STREAM-INF) was expected")
            }
        }
        try parseViews()
        guard !variants.isEmpty else {
            throw HLSError(
                .missingRequired, source: source, line: nil,
                "no #EXT-X-STREAM-INF: a master playlist must list at least one variant stream (RFC 8216bis §4.4.6.2)")
        }
    }

    /// A variant stream: an `EXT-X-STREAM-INF` line and the URI line after it.
    ///
    /// A view holds the lines it was read from, not a parsed copy: its attributes are parsed from
    /// the line each time they are read (the line was checked when the view was made).
    public struct Variant: Sendable, Equatable {
        /// Index of the tag line in ``Playlist/lines``.
        public var lineIndex: Int { Int(tagLine) }
        /// Index of the URI line.
        public var uriLineIndex: Int { Int(uriLine) }
        // 16 bytes a variant: a playlist has fewer than 2^32 lines (it is smaller than 4 GiB).
        private let tagLine: UInt32
        private let uriLine: UInt32
        let lines: LineSnapshot

        init(lineIndex: Int, uriLineIndex: Int, lines: LineSnapshot) {
            (tagLine, uriLine) = (UInt32(lineIndex), UInt32(uriLineIndex))
            self.lines = lines
        }

        public var attributes: AttributeList { lines.attributes(of: lineIndex) }
        /// The URI as written (variables not substituted).
        public var uri: String { lines.uri(of: uriLineIndex) }

        public static func == (a: Variant, b: Variant) -> Bool {
            a.lineIndex == b.lineIndex && a.uriLineIndex == b.uriLineIndex && a.attributes == b.attributes && a.uri == b.uri
        }
    }

    /// An `EXT-X-MEDIA` line.
    public struct Rendition: Sendable, Equatable {
        public let lineIndex: Int
        let lines: LineSnapshot

        public var attributes: AttributeList { lines.attributes(of: lineIndex) }

        public static func == (a: Rendition, b: Rendition) -> Bool { a.lineIndex == b.lineIndex && a.attributes == b.attributes }

        /// TYPE, when it is one of the four types (and unquoted, as §4.4.6.1 requires).
        public var type: MediaType? {
            guard let raw = attributes["TYPE"], !raw.isQuoted else { return nil }
            return MediaType(rawValue: raw.rawValue)
        }
        public var groupID: String? { attributes["GROUP-ID"]?.unquoted }
        public var name: String? { attributes["NAME"]?.unquoted }
        public var language: String? { attributes["LANGUAGE"]?.unquoted }
        public var uri: String? { attributes["URI"]?.unquoted }
        public var isDefault: Bool { attributes["DEFAULT"]?.rawValue == YesNo.yes.rawValue }
        public var isAutoselect: Bool { attributes["AUTOSELECT"]?.rawValue == YesNo.yes.rawValue }
        public var isForced: Bool { attributes["FORCED"]?.rawValue == YesNo.yes.rawValue }
        public var characteristics: String? { attributes["CHARACTERISTICS"]?.unquoted }
    }

    /// An `EXT-X-I-FRAME-STREAM-INF` line.
    public struct IFrameStream: Sendable, Equatable {
        public let lineIndex: Int
        let lines: LineSnapshot

        public var attributes: AttributeList { lines.attributes(of: lineIndex) }

        public static func == (a: IFrameStream, b: IFrameStream) -> Bool { a.lineIndex == b.lineIndex && a.attributes == b.attributes }
    }

    /// One change to the lines.
    public enum Edit: Sendable, Equatable {
        /// Replace the tag on line `index` with `name:attributes` (nothing happens if the text is the same).
        case setTag(line: Int, name: String, attributes: AttributeList)
        /// Insert tags before line `index` (at the end: `lines.count`), in the playlist's line-ending style.
        case insertTags(before: Int, [(name: String, attributes: AttributeList)])
        /// Remove line `index`.
        case remove(line: Int)
        /// Replace the URI on line `index` (a line that is a URI) with `uri`.
        case setURI(line: Int, uri: String)
        /// Apply `edits` to the attributes of every line with tag `tag` (every `#EXT-X-STREAM-INF`):
        /// one edit for the same change on many lines (see ``Playlist/rewriteTags(_:_:)``).
        case editAttributes(tag: String, [AttributeEdit])
        /// Set the playlist's `EXT-X-VERSION` to at least `version`: the tag's value raised where
        /// it stands, or the tag added after `#EXTM3U` when there is none (version 1).
        case requireVersion(Int)

        public static func == (a: Edit, b: Edit) -> Bool {
            switch (a, b) {
            case let (.setTag(l1, n1, a1), .setTag(l2, n2, a2)): return l1 == l2 && n1 == n2 && a1 == a2
            case let (.insertTags(b1, t1), .insertTags(b2, t2)):
                return b1 == b2 && t1.elementsEqual(t2) { $0.name == $1.name && $0.attributes == $1.attributes }
            case let (.remove(l1), .remove(l2)): return l1 == l2
            case let (.setURI(l1, u1), .setURI(l2, u2)): return l1 == l2 && u1 == u2
            case let (.editAttributes(t1, e1), .editAttributes(t2, e2)): return t1 == t2 && e1 == e2
            case let (.requireVersion(v1), .requireVersion(v2)): return v1 == v2
            default: return false
            }
        }
    }

    /// Applies `edits`, whose line indices all refer to the lines as they are now: attribute edits
    /// by tag (on the lines there now), replacements, then insertions and removals (a removal before
    /// an insertion at the same line; a line replaced by `setTag` or `setURI` is taken as given).
    ///
    /// Lines not named keep their text; the views are parsed again.
    public mutating func apply(_ edits: [Edit]) throws(HLSError) {
        var replacing: [Int: String] = [:]
        var inserting: [Int: [PlaylistLine]] = [:]
        var removing: Set<Int> = []
        var rewrites: [(tag: String, edits: [AttributeEdit])] = []
        let lines = playlist.lines
        for edit in edits {
            switch edit {
            case .setTag(let line, let name, let attributes):
                let text = Self.tagText(name, attributes)
                replacing[line] = lines[line].content.trimmingTrailingWhitespace == Substring(text) ? nil : text
            case .setURI(let line, let uri):
                replacing[line] = lines[line].content.trimmingTrailingWhitespace == Substring(uri) ? nil : uri
            case .insertTags(let before, let tags):
                inserting[before, default: []] += tags.map { playlist.makeLine(Self.tagText($0.name, $0.attributes)) }
            case .remove(let line):
                removing.insert(line)
            case .editAttributes(let tag, let attributeEdits):
                rewrites.append((tag, attributeEdits))
            case .requireVersion(let version):
                let text = "\(TagName.version):\(version)"
                if let declared = versionTag {
                    if declared.version < version { replacing[declared.line] = text }
                } else {
                    inserting[min(1, lines.count), default: []].append(playlist.makeLine(text))
                }
            }
        }
        // The views hold the lines as they were: dropped first, the edit does not copy what it shares with them.
        (variants, renditions, iFrameStreams) = ([], [], [])
        for rewrite in rewrites { playlist.rewriteTags(rewrite.tag, rewrite.edits) }
        playlist.edit(replacing: replacing, inserting: inserting, removing: removing)
        try parseViews()
    }

    /// Rewrites the URI lines (the variants' media playlists) with `rewriter` (see
    /// ``Playlist/rewriteURIs(_:)``); the views are parsed again.
    public mutating func rewriteURIs(_ rewriter: some URIRewriting) throws(HLSError) {
        (variants, renditions, iFrameStreams) = ([], [], [])
        playlist.rewriteURIs(rewriter)
        try parseViews()
    }

    /// The first `EXT-X-VERSION` tag: its line and the version it declares (1 when the value is
    /// not a number), or nil when there is none (version 1).
    public var versionTag: (line: Int, version: Int)? {
        guard let line = (0..<playlist.count).first(where: { playlist.lineClass($0) == .tag(TagName.version) }) else { return nil }
        let value = playlist.lines[line].content.split(separator: ":", maxSplits: 1).last.flatMap { Int($0.trimming([" ", "\t", "\r"])) }
        return (line, value ?? 1)
    }

    /// The text of a tag line: `#EXT-X-MEDIA:` and the attribute list.
    public static func tagText(_ name: String, _ attributes: AttributeList) -> String {
        "\(name):\(attributes.text)"
    }

    /// Parses the views from the lines.
    private mutating func parseViews() throws(HLSError) {
        var variants: [Variant] = []
        var renditions: [Rendition] = []
        var iFrames: [IFrameStream] = []
        let snapshot = LineSnapshot(playlist)
        // Lines as classes, found on the bytes (no text made); their attributes are checked as they
        // are before pending rewrites (a rewrite writes lists that parse).
        let playlist = self.playlist
        let count = playlist.count
        let classes = (0..<count).lazy.map { playlist.lineClass($0) }
        // Sized once: a list grown by doubling holds twice its size while it moves.
        variants.reserveCapacity(classes.reduce(0) { $0 + ($1 == .tag(TagName.streamInf) ? 1 : 0) })
        for index in 0..<count {
            guard case .tag(let name) = playlist.lineClass(index) else { continue }
            switch name {
            case TagName.streamInf:
                try checkAttributes(at: index, name)
                var next = index + 1
                while next < count, [.blank, .comment].contains(playlist.lineClass(next)) { next += 1 }
                guard next < count, playlist.lineClass(next) == .uri else {
                    throw HLSError(
                        .missingRequired, source: source, line: playlist.number(ofLine: index),
                        "#EXT-X-STREAM-INF must be followed by the URI of its media playlist (RFC 8216bis §4.4.6.2)")
                }
                variants.append(Variant(lineIndex: index, uriLineIndex: next, lines: snapshot))
            case TagName.media:
                try checkAttributes(at: index, name)
                renditions.append(Rendition(lineIndex: index, lines: snapshot))
            case TagName.iFrameStreamInf:
                try checkAttributes(at: index, name)
                iFrames.append(IFrameStream(lineIndex: index, lines: snapshot))
            default:
                continue
            }
        }
        self.variants = variants
        self.renditions = renditions
        self.iFrameStreams = iFrames
        self.definitions = findDefinitions()
    }

    /// The variables `EXT-X-DEFINE:NAME=…,VALUE=…` defines (RFC 8216bis §4.4.2.3).
    ///
    /// Variables a client supplies (QUERYPARAM) are not known here. Found with the views (a
    /// lookup per URI must not scan the playlist).
    public private(set) var definitions: [String: String] = [:]

    /// The definitions of the lines as they are now.
    private func findDefinitions() -> [String: String] {
        var result: [String: String] = [:]
        for index in 0..<playlist.count where playlist.lineClass(index) == .tag(TagName.define) {
            guard let list = (try? playlist.attributes(ofLine: index)) ?? nil, let name = list["NAME"]?.unquoted, let defined = list["VALUE"]?.unquoted
            else { continue }
            result[name] = defined
        }
        return result
    }

    /// `text` (from line `lineIndex`) with every `{$name}` replaced by its value (§4.4.2.3);
    /// fails, naming the line, on a reference to a variable no `EXT-X-DEFINE` defines (§4.3).
    public func substitutingVariables(in text: String, line lineIndex: Int) throws(HLSError) -> String {
        do { return try VariableSubstitution.apply(definitions, to: text) } catch {
            throw HLSError(
                .malformedTag, source: source, line: playlist.lines.indices.contains(lineIndex) ? playlist.lines[lineIndex].number : nil,
                "the variable reference {$\(error.name)} names no variable defined by EXT-X-DEFINE (RFC 8216bis §4.3 requires the playlist to define it)")
        }
    }

    /// Checks the attribute list of the tag `name` on line `index` (before pending rewrites).
    private func checkAttributes(at index: Int, _ name: String) throws(HLSError) {
        do {
            _ = try playlist.attributes(ofLine: index, values: false, rewritten: false)
        } catch {
            throw HLSError(
                .malformedAttributeList, source: source, line: playlist.number(ofLine: index),
                "\(name): \(error.reason) (at byte \(error.offset + name.utf8.count + 2) of the line); RFC 8216bis §4.2 requires NAME=VALUE pairs separated by commas"
            )
        }
    }
}

/// The lines a view was read from, shared by every view of one parse.
final class LineSnapshot: Sendable {
    let playlist: Playlist

    init(_ playlist: Playlist) { self.playlist = playlist }

    /// The attributes of the tag on line `index` (checked when the view was made).
    func attributes(of index: Int) -> AttributeList {
        ((try? playlist.attributes(ofLine: index)) ?? nil) ?? AttributeList()
    }

    /// The URI on line `index`.
    func uri(of index: Int) -> String {
        guard case .uri(let uri) = playlist.lines[index].kind else { return "" }
        return String(uri)
    }
}
