import Foundation
import Timebase
import TimedText

/// Where a subtitle file to read on its own comes from.
public enum SubtitleInput: Sendable, Equatable, CustomStringConvertible {
    case source(SubtitleSource)
    /// Standard input (`-` on the command line).
    case standardInput

    public var description: String {
        switch self {
        case .source(let source): return source.description
        case .standardInput: return "standard input"
        }
    }
}

/// Reads one subtitle file into cues, as the packager reads a track's file (what `subweave cues`
/// and `subweave convert` print).
public struct SubtitleReader: Sendable {
    public var loader: ResourceLoader

    /// A reader reading through `loader`.
    public init(loader: ResourceLoader = ResourceLoader()) { self.loader = loader }

    /// The cues of `input` read as `format` (default: the format its content shows, else its
    /// extension's), in `encoding` (default: detected).
    ///
    /// A file without cues is not an error here.
    ///
    /// `asWritten` gives the cues as a browser's parser does (cue text and identifiers as in the
    /// file, cues whose end is not after their start kept), for `subweave cues`; otherwise the
    /// text is repaired into valid WebVTT, as `convert` writes it.
    public func read(
        _ input: SubtitleInput, format: SubtitleFormat? = nil, encoding: TextEncoding? = nil, captionFile: CaptionFileReading = CaptionFileReading(),
        asWritten: Bool = false, language: LanguageTag? = nil, crops: Bool = false
    ) async throws(SubweaveError) -> IngestedSubtitles {
        let purpose: SubtitleIngest.Purpose = asWritten ? .inspection : .conversion
        // Pictures (a VobSub index and its .sub) are read through OCR.
        if case .source(let source) = input, let pictures = format ?? SubtitleFormat.inferred(fromPath: source.pathForExtension), pictures.isPictures {
            return try await PictureSubtitles.read(
                source.url, format: pictures, language: language, loader: loader, sourceID: input.description, location: input.description,
                crops: crops)
        }
        do {
            // A local SubRip or WebVTT file in UTF-8 is read a piece at a time, never whole.
            if case .source(let source) = input,
                let (ingested, _) = try await SubtitleIngest.readLocalInPieces(
                    source.url, format: format, fallback: SubtitleFormat.inferred(fromPath: source.pathForExtension), encoding: encoding,
                    limit: loader.limits.subtitle, sourceID: input.description, location: input.description, purpose: purpose)
            {
                return ingested
            }
        } catch {
            switch error {
            case .unreadable(let failure): throw .unreadable(path: input.description, what: "", failure)
            case .load(let failure): throw .load(failure)
            }
        }
        let bytes: [UInt8]
        do {
            switch input {
            case .source(let source): bytes = try await loader.read(source.url, kind: .subtitle)
            case .standardInput: bytes = try ResourceLoader.readStandardInput(limit: loader.limits.subtitle)
            }
        } catch {
            throw .unreadable(path: input.description, what: "", error)
        }
        let extensionFormat: SubtitleFormat?
        if case .source(let source) = input { extensionFormat = SubtitleFormat.inferred(fromPath: source.pathForExtension) } else { extensionFormat = nil }
        let (resolved, note) = SubtitleFormat.resolve(declared: format, head: Array(bytes.prefix(4096)), encoding: encoding, fromExtension: extensionFormat)
        guard let chosen = resolved else {
            throw .load(
                LoadFailure(
                    .notSubtitles, sourceID: input.description, location: input.description,
                    "cannot tell the format: neither the content nor the extension says WebVTT, SubRip, SCC, MCC, EBU STL, ASS/SSA or TTML; give the format"))
        }
        do {
            let ingested = try SubtitleIngest.read(
                consume bytes, format: chosen, encoding: encoding, captionFile: captionFile, sourceID: input.description, location: input.description,
                purpose: purpose)
            return note.map(ingested.adding) ?? ingested
        } catch {
            throw .load(error)
        }
    }
}

extension SubtitleFormat {
    /// The format to read a file as, the same for the packager and for `cues`/`convert`: the
    /// declared one; else the one its content shows (a vendor's SubRip file named `.vtt` is
    /// SubRip), said when the extension names another; else the extension's.
    package static func resolve(
        declared: SubtitleFormat?, head: [UInt8], encoding: TextEncoding?, fromExtension: SubtitleFormat?
    ) -> (SubtitleFormat?, IngestWarning?) {
        if let declared { return (declared, nil) }
        guard let content = sniffed(head, encoding: encoding) else { return (fromExtension, nil) }
        guard let named = fromExtension, named != content else { return (content, nil) }
        return (
            content,
            IngestWarning(
                kind: .formatFromContent, line: nil,
                "the file is named as \(named.rawValue) but its content is \(content.rawValue): read as \(content.rawValue) (declare format= to say otherwise)")
        )
    }

    /// The format the start of `bytes` shows: the `WEBVTT` signature, the `Scenarist_SCC` header,
    /// `[Script Info]` (ASS/SSA), a TTML root (`tt` in the TTML namespace), or a SubRip timing
    /// line among the first lines; nil when none does.
    public static func sniffed(_ bytes: [UInt8], encoding: TextEncoding? = nil) -> SubtitleFormat? {
        // PGS: "PG", two timestamps, then a segment type.
        if bytes.count >= 13, bytes[0] == 0x50, bytes[1] == 0x47, [0x14, 0x15, 0x16, 0x17, 0x80].contains(bytes[10]) { return .pgs }
        // EBU STL: a binary GSI block whose disk format code (bytes 3-10) is STLnn.01.
        if bytes.count >= 11, bytes[3..<6].elementsEqual("STL".utf8), bytes[8..<11].elementsEqual(".01".utf8) { return .stl }
        let head = TextDecoder.decode(Array(bytes.prefix(4096)), forced: encoding).text
        let text = head.hasPrefix("\u{FEFF}") ? String(head.dropFirst()) : head
        if text.hasPrefix("WEBVTT") { return .vtt }
        if text.hasPrefix("Scenarist_SCC") { return .scc }
        if text.hasPrefix("File Format=MacCaption_MCC") { return .mcc }
        if text.hasPrefix("# VobSub index file") { return .vobSub }
        let opening = text.drop { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
        // Only the opening's first characters lower-cased, not the whole head.
        if opening.prefix(13).lowercased() == "[script info]" { return .ass }
        if opening.hasPrefix("<"), head.contains("<tt") || head.contains(":tt "), head.contains("http://www.w3.org/ns/ttml") { return .ttml }
        // The first twelve lines, not every line of the head cut apart.
        let lines = text.split(maxSplits: 12, omittingEmptySubsequences: true, whereSeparator: { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }).prefix(12)
        if lines.contains(where: { $0.contains("-->") }) { return .srt }
        return nil
    }
}
