/// A master (multivariant) playlist: the lossless ``Playlist`` plus views of its variants and
/// renditions.
///
/// Views are computed from the lines on each call, so they stay right after the lines change.
public struct MasterPlaylist: Sendable, Equatable {
    /// The lines.
    public var playlist: Playlist
    /// The path or URL the playlist was read from, for messages.
    public let source: String

    /// Parses a master playlist; fails with the file and line for anything that is not one.
    public init(parsing bytes: [UInt8], source: String) throws(HLSError) {
        let playlist = try Playlist(parsing: bytes, source: source)
        self.playlist = playlist
        self.source = source
        for line in playlist.lines {
            guard case .tag(let name, _) = line.kind else { continue }
            if name == "#EXTINF" || name == "#EXT-X-TARGETDURATION" {
                throw HLSError(.wrongPlaylistKind, source: source, line: line.number,
                               "\(name) makes this a media playlist; a master playlist (with #EXT-X-STREAM-INF) was expected")
            }
        }
        let variants = try variants()
        guard !variants.isEmpty else {
            throw HLSError(.missingRequired, source: source, line: nil,
                           "no #EXT-X-STREAM-INF: a master playlist must list at least one variant stream (RFC 8216bis §4.4.6.2)")
        }
        _ = try renditions()
        _ = try iFrameStreams()
    }

    /// A variant stream: an `EXT-X-STREAM-INF` line and the URI line after it.
    public struct Variant: Sendable, Equatable {
        /// Index of the tag line in ``Playlist/lines``.
        public let lineIndex: Int
        /// Index of the URI line.
        public let uriLineIndex: Int
        public let attributes: AttributeList
        public let uri: String
    }

    /// An `EXT-X-MEDIA` line.
    public struct Rendition: Sendable, Equatable {
        public let lineIndex: Int
        public let attributes: AttributeList

        public var type: String? { attributes["TYPE"]?.rawValue }
        public var groupID: String? { attributes["GROUP-ID"]?.unquoted }
        public var name: String? { attributes["NAME"]?.unquoted }
        public var language: String? { attributes["LANGUAGE"]?.unquoted }
        public var uri: String? { attributes["URI"]?.unquoted }
        public func flag(_ name: String) -> Bool { attributes[name]?.rawValue == "YES" }
    }

    /// An `EXT-X-I-FRAME-STREAM-INF` line.
    public struct IFrameStream: Sendable, Equatable {
        public let lineIndex: Int
        public let attributes: AttributeList
    }

    /// The variants in order.
    public func variants() throws(HLSError) -> [Variant] {
        var result: [Variant] = []
        let lines = playlist.lines
        var index = 0
        while index < lines.count {
            defer { index += 1 }
            guard case .tag("#EXT-X-STREAM-INF", let value) = lines[index].kind else { continue }
            let attributes = try parseAttributes(value, at: index)
            var next = index + 1
            var uri: Substring?
            while next < lines.count {
                switch lines[next].kind {
                case .uri(let text): uri = text
                case .blank, .comment: next += 1; continue
                case .tag: break
                }
                break
            }
            guard let uri, next < lines.count else {
                throw HLSError(.missingRequired, source: source, line: lines[index].number,
                               "#EXT-X-STREAM-INF must be followed by the URI of its media playlist (RFC 8216bis §4.4.6.2)")
            }
            result.append(Variant(lineIndex: index, uriLineIndex: next, attributes: attributes, uri: String(uri)))
        }
        return result
    }

    /// The `EXT-X-MEDIA` renditions in order.
    public func renditions() throws(HLSError) -> [Rendition] {
        var result: [Rendition] = []
        for (index, line) in playlist.lines.enumerated() {
            guard case .tag("#EXT-X-MEDIA", let value) = line.kind else { continue }
            result.append(Rendition(lineIndex: index, attributes: try parseAttributes(value, at: index)))
        }
        return result
    }

    /// The `EXT-X-I-FRAME-STREAM-INF` lines in order.
    public func iFrameStreams() throws(HLSError) -> [IFrameStream] {
        var result: [IFrameStream] = []
        for (index, line) in playlist.lines.enumerated() {
            guard case .tag("#EXT-X-I-FRAME-STREAM-INF", let value) = line.kind else { continue }
            result.append(IFrameStream(lineIndex: index, attributes: try parseAttributes(value, at: index)))
        }
        return result
    }

    /// The variables `EXT-X-DEFINE:NAME=…,VALUE=…` defines (RFC 8216bis §4.4.2.3); variables a
    /// client supplies (QUERYPARAM) are not known here.
    public var definitions: [String: String] {
        var result: [String: String] = [:]
        for line in playlist.lines {
            guard case .tag("#EXT-X-DEFINE", let value?) = line.kind, let list = try? AttributeList(parsing: value),
                  let name = list["NAME"]?.unquoted, let defined = list["VALUE"]?.unquoted else { continue }
            result[name] = defined
        }
        return result
    }

    /// `text` with every `{$name}` of a defined variable replaced by its value (§4.4.2.3).
    public func substitutingVariables(in text: String) -> String {
        VariableSubstitution.apply(definitions, to: text)
    }

    /// Replaces the attribute list of the tag on line `lineIndex`, keeping the tag name.
    public mutating func setAttributes(_ attributes: AttributeList, ofLine lineIndex: Int) {
        guard let name = playlist.lines[lineIndex].tagName else { return }
        let newText = "\(name):\(attributes.text)"
        if playlist.lines[lineIndex].content.trimmingTrailingWhitespace != Substring(newText) {
            playlist.lines[lineIndex].text = newText
        }
    }

    private func parseAttributes(_ value: Substring?, at index: Int) throws(HLSError) -> AttributeList {
        let line = playlist.lines[index]
        do {
            return try AttributeList(parsing: value ?? "")
        } catch {
            throw HLSError(.malformedAttributeList, source: source, line: line.number,
                           "\(line.tagName ?? "tag"): \(error.reason) (at character \(error.offset + (line.tagName?.count ?? 0) + 2)); RFC 8216bis §4.2 requires NAME=VALUE pairs separated by commas")
        }
    }
}

/// Variable substitution (RFC 8216bis §4.3, §4.4.2.3): `{$name}` becomes the variable's value.
public enum VariableSubstitution {
    public static func apply(_ definitions: [String: String], to text: String) -> String {
        guard !definitions.isEmpty, text.contains("{$") else { return text }
        var result = text
        for (name, value) in definitions { result = result.replacingOccurrences(of: "{$\(name)}", with: value) }
        return result
    }
}

extension String {
    func replacingOccurrences(of target: String, with replacement: String) -> String {
        guard !target.isEmpty else { return self }
        var out = ""
        var rest = Substring(self)
        while let range = rest.range(of: target) {
            out += rest[..<range.lowerBound]
            out += replacement
            rest = rest[range.upperBound...]
        }
        return out + rest
    }
}

extension Substring {
    func range(of target: String) -> Range<Substring.Index>? {
        var i = startIndex
        while i < endIndex {
            if self[i...].hasPrefix(target) { return i..<index(i, offsetBy: target.count) }
            i = index(after: i)
        }
        return nil
    }
}
