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

    /// `text` (from line `lineIndex`) with every `{$name}` replaced by its value (§4.4.2.3);
    /// fails, naming the line, on a reference to a variable no `EXT-X-DEFINE` defines (§4.3).
    public func substitutingVariables(in text: String, line lineIndex: Int) throws(HLSError) -> String {
        do { return try VariableSubstitution.apply(definitions, to: text) } catch {
            throw HLSError(.malformedTag, source: source, line: playlist.lines.indices.contains(lineIndex) ? playlist.lines[lineIndex].number : nil,
                           "the variable reference {$\(error.name)} names no variable defined by EXT-X-DEFINE (RFC 8216bis §4.3 requires the playlist to define it)")
        }
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
                           "\(line.tagName ?? "tag"): \(error.reason) (at byte \(error.offset + (line.tagName?.utf8.count ?? 0) + 2) of the line); RFC 8216bis §4.2 requires NAME=VALUE pairs separated by commas")
        }
    }
}

/// Variable substitution (RFC 8216bis §4.3, §4.4.2.3): `{$name}` becomes the variable's value.
///
/// One pass from left to right: a substituted value is not scanned again, so definitions that
/// refer to each other cannot expand (the spec substitutes once).
public enum VariableSubstitution {
    /// A reference to a variable no `EXT-X-DEFINE` defines.
    public struct Undefined: Error, Sendable, Equatable {
        public let name: String
    }

    /// `text` with every `{$name}` replaced; fails on a reference to an undefined variable.
    public static func apply(_ definitions: [String: String], to text: String) throws(Undefined) -> String {
        let bytes = Array(text.utf8)
        guard bytes.count >= 3, bytes.contains(UInt8(ascii: "{")) else { return text }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = 0
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: "{"), i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "$"),
               let close = bytes[(i + 2)...].firstIndex(of: UInt8(ascii: "}")) {
                let nameBytes = bytes[(i + 2)..<close]
                // Variable names are [a-zA-Z0-9-_] (§4.4.2.3); anything else is not a reference.
                if !nameBytes.isEmpty, nameBytes.allSatisfy(isNameByte) {
                    let name = String(decoding: nameBytes, as: UTF8.self)
                    guard let value = definitions[name] else { throw Undefined(name: name) }
                    out += value.utf8
                    i = close + 1
                    continue
                }
            }
            out.append(bytes[i])
            i += 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    static func isNameByte(_ b: UInt8) -> Bool {
        (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x2D || b == 0x5F
    }
}
