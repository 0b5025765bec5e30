import Captions
import Timebase

/// Where Subweave keeps its renditions beside the master, how it names their files, and how it
/// recognises them in a master on a later run: the one home for these names.
///
/// ```
/// subtitles/<source-id>-<language>/<generation>/index.m3u8, 00000.vtt, 00001.vtt, …
/// captions/cc1/<generation>/…
/// ```
/// A rendition's folder is stable across runs; each run's output for it is a *generation*, a
/// folder named by 12 hexadecimal digits of a hash of everything written in it. The master names
/// one generation; a new generation is complete on disk before the master names it, and the old
/// one is removed only after the master has moved on (``OutputWriter``). The same input gives
/// the same generation, so a repeated run changes nothing.
package enum RenditionLayout {
    /// The folder of side-loaded tracks, relative to the master.
    package static let subtitlesRoot = "subtitles"
    /// The folder of decoded in-band captions, relative to the master.
    package static let captionsRoot = "captions"
    /// A rendition's media playlist, inside its generation.
    package static let playlistName = "index.m3u8"
    /// In a generation the master no longer names: when it was retired (seconds since 1970).
    package static let retiredMarkerName = "retired"
    /// How long a retired generation stays for players that loaded an earlier master: a day,
    /// longer than a viewing session (players never reload the master).
    package static let defaultRetireAfter: Double = 86_400

    /// The folder of a rendition, relative to the master: a side-loaded track's as `template`
    /// says (`subtitles/<slug>-<language>` by default, every character of the source ID outside
    /// `A-Z a-z 0-9 . _ -` replaced by `_`), `captions/cc1`, `captions/service1` or
    /// `captions/teletext-888`.
    package static func folder(for identity: RenditionIdentity, template: RenditionFolderTemplate = .standard) -> String {
        switch identity {
        case .external(let id, let language): return template.folder(id: slug(id), language: language.description)
        case .inBand(let service): return "\(captionsRoot)/\(service.isTeletext ? "teletext-" : "")\(service.rawValue.lowercased())"
        }
    }

    /// The length in bytes of the longest folder name a side-loaded track gets (file systems
    /// allow 255).
    package static func folderNameLength(sourceID: String, language: LanguageTag, template: RenditionFolderTemplate = .standard) -> Int {
        template.folder(id: slug(sourceID), language: language.description).split(separator: "/").map(\.utf8.count).max() ?? 0
    }

    /// The URI a master names for `generation` of the rendition in `folder`.
    package static func playlistURI(folder: String, generation: String) -> String {
        "\(folder)/\(generation)/\(playlistName)"
    }

    /// An IMSC1 rendition's initialisation segment, inside its generation.
    package static let initializationName = "init.mp4"

    /// Every file of a generation, relative to the master, in the order they are made: the
    /// `segments` segments, the playlist, and with a `record`, the kept cues and the record.
    package static func paths(folder: String, generation: String, segments: Int, record: Bool, naming: SegmentNaming = .standard) -> [String] {
        names(segments: segments, record: record, naming: naming).map { "\(folder)/\(generation)/\($0)" }
    }

    /// The names of the files of a generation of `segments` segments (with its record of cues):
    /// an IMSC1 one's initialisation segment first.
    package static func names(segments: Int, record: Bool, naming: SegmentNaming = .standard) -> [String] {
        (naming.format == .imsc1 ? [initializationName] : []) + segmentNames(count: segments, naming: naming) + [playlistName]
            + (record ? [RenditionRecord.cuesFileName, RenditionRecord.fileName] : [])
    }

    /// The segment file names, in order: `00000.vtt`, `00001.vtt`, … (at least five digits, all
    /// of one width; `.m4s` for IMSC1; in `naming`'s template).
    package static func segmentNames(count: Int, naming: SegmentNaming = .standard) -> [String] {
        let digits = max(5, String(max(0, count - 1)).count)
        return (0..<count).map { segmentName($0, digits: digits, naming: naming) }
    }

    /// Segment `number`'s file name, at least `digits` digits (a live rendition names its
    /// segments by media sequence number, five digits or more).
    package static func segmentName(_ number: Int, digits: Int = 5, naming: SegmentNaming = .standard) -> String {
        naming.template.name(number, digits: digits, extension: naming.fileExtension)
    }

    /// The file name of part `part` of segment `number` in a low-latency rendition:
    /// `00042.p0.vtt`, `00042.p1.vtt`, … (the segment's name with `.p<part>` before the
    /// extension; no segment name has that shape).
    package static func partName(_ number: Int, part: Int, digits: Int = 5, naming: SegmentNaming = .standard) -> String {
        naming.template.name(number, digits: digits, extension: "p\(part).\(naming.fileExtension)")
    }

    /// True for a generation folder name: 12 lower-case hexadecimal digits.
    package static func isGeneration(_ name: Substring) -> Bool {
        name.utf8.count == 12 && name.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }
    }

    /// A file name Subweave writes directly in a rendition folder before generations existed
    /// (`index.m3u8`, `00000.vtt` …); such files are removed once the master no longer names them.
    static func isLegacyFile(_ name: String) -> Bool {
        if name == playlistName { return true }
        guard name.hasSuffix(".vtt") else { return false }
        let stem = name.dropLast(4)
        return !stem.isEmpty && stem.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
    }

    /// Where a URI of a master points, when it is a rendition Subweave manages.
    ///
    /// Its folder and generation (nil for the layout before generations,
    /// `subtitles/<x>/index.m3u8`). A folder made by one of `templates` (the title's, ``RenditionFolderTemplate``) is recognised with
    /// its generation, as the default layout's are.
    package static func recognise(_ uri: String, templates: [RenditionFolderTemplate] = []) -> (folder: String, generation: String?)? {
        let parts = uri.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.last.map(String.init) == playlistName else { return nil }
        if parts.count == 3 || parts.count == 4, parts[0] == subtitlesRoot || parts[0] == captionsRoot, !parts[1].isEmpty, !parts[1].hasPrefix(".") {
            let folder = "\(parts[0])/\(parts[1])"
            if parts.count == 3 { return parts[0] == subtitlesRoot ? (folder, nil) : nil }
            return isGeneration(parts[2]) ? (folder, String(parts[2])) : nil
        }
        guard parts.count >= 3, isGeneration(parts[parts.count - 2]) else { return nil }
        let folder = parts.dropLast(2).joined(separator: "/")
        return templates.contains { $0 != .standard && $0.matches(folder) } ? (folder, String(parts[parts.count - 2])) : nil
    }

    /// The folder-safe form of a source ID.
    static func slug(_ text: String) -> String {
        var out = String(
            text.unicodeScalars.map { scalar -> Character in
                let v = scalar.value
                let ok = (v >= 0x30 && v <= 0x39) || (v >= 0x41 && v <= 0x5A) || (v >= 0x61 && v <= 0x7A) || v == 0x2E || v == 0x5F || v == 0x2D
                return ok ? Character(scalar) : "_"
            })
        while out.hasPrefix(".") { out.removeFirst() }
        return out.isEmpty ? "track" : out
    }
}
