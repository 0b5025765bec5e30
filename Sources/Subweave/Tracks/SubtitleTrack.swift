import Foundation
import HLS
import Timebase
import TimedText

/// A side-loaded subtitle track, checked and ready to load (modelled on the external subtitle
/// tracks of player SDKs such as FastPix's `FastPixExternalSubtitleTrack`).
///
/// ```swift
/// let english = try SubtitleTrack(source: .file(URL(fileURLWithPath: "subs/en.srt")),
///                                 language: LanguageTag(parsing: "en"), isSDH: true)
/// english.label      // "English (SDH)"
/// ```
public struct SubtitleTrack: Sendable, Equatable {
    /// The caller's identifier for the source; unique among the tracks of a run.
    public let sourceID: String
    public let source: SubtitleSource
    /// The declared language, or `und`; never guessed from the label.
    public let language: LanguageTag
    /// The menu label (`NAME`).
    public let label: String
    /// True when the label was derived from the language rather than given.
    public let labelIsDerived: Bool
    /// The declared format; nil means inferred from the path's extension.
    public let declaredFormat: SubtitleFormat?
    /// The format to read: declared, or inferred from the extension.
    public let format: SubtitleFormat
    /// Advisory: breaks ties in the preferred-language rule; never makes a rendition DEFAULT alone.
    public let isDefault: Bool
    public let isForced: Bool
    /// The rendition's `CHARACTERISTICS`: the SDH pair first when the track is SDH, then those
    /// the descriptor named (`generated`, `translated`, `easy-to-read`, `characteristics=`).
    public let characteristics: MediaCharacteristics
    /// Subtitles for the deaf and hard of hearing (the SDH pair of characteristics).
    public var isSDH: Bool { characteristics.isSDH }
    /// Added to every cue time after ``offset`` (positive shows text later), within ±10 s.
    public let delay: MediaTime
    /// Added to every cue time first, any size: moves a timecoded sidecar (a broadcast file that
    /// starts at 01:00:00:00) onto the programme (`-01:00:00`).
    public let offset: MediaTime
    /// How fast the file's clock runs against the programme's: cue times are divided by it
    /// before ``offset`` is added (`25/23.976` for a file timed on the 25 fps version).
    public package(set) var rate = ClockRate.one
    /// The frame rate of a timecoded file's timecodes (SCC), or nil for the format's own (29.97).
    public package(set) var fps: TimecodeRate?
    /// The caption service a caption file's track takes (SCC, MCC), or nil for the first with text.
    public package(set) var service: CaptionService?
    /// How a caption file (SCC, MCC) is read for this track.
    public var captionFile: CaptionFileReading { CaptionFileReading(fps: fps, service: service) }
    /// A forced text encoding, or nil to detect.
    public let encoding: TextEncoding?
    /// Things registration adjusted (a clamped delay): warnings.
    public let notes: [String]
    /// What was decided as documented (the language taken from a TTML file's `xml:lang`): said in
    /// the report, never a warning.
    public package(set) var information: [String] = []

    /// The largest delay accepted; more is clamped with a note.
    public static let maximumDelay = MediaTime(seconds: 10)

    /// A track from typed values.
    ///
    /// - Parameters:
    ///   - source: where the file is.
    ///   - id: the source ID (default: the file name without its extension); it names the
    ///     rendition's folder, so it may not be a path, and is at most 200 bytes.
    ///   - language: BCP 47, or `und` (the default).
    ///   - name: the menu label (default: the language's own name, with ` (SDH)` / ` (Forced)`).
    ///     It may not hold control characters, line or paragraph separators, bidirectional
    ///     embedding, override or isolate controls, or invisible zero-width spaces, which let a
    ///     label spoof another in a menu (ZWJ and ZWNJ, which scripts and emoji need, are kept).
    ///   - format: one of ``SubtitleFormat`` (default: declared by the content, else the path's
    ///     extension; the query is never read).
    ///   - delay: seconds added after `offset`, clamped to ±10 s (with a note).
    ///   - offset: added to every cue first, any size.
    ///   - encoding: force a text encoding.
    ///   - rate: the file's clock against the programme's; cue times are divided by it first.
    ///   - characteristics: `CHARACTERISTICS` besides the SDH pair `isSDH` gives (checked as
    ///     ``TrackDescriptor`` checks `characteristics=`).
    /// - Throws: the first problem; ``register(_:)`` reports every problem of every descriptor.
    public init(
        source: SubtitleSource, id: String? = nil, language: LanguageTag? = nil, name: String? = nil,
        format: SubtitleFormat? = nil, isForced: Bool = false, isSDH: Bool = false, isDefault: Bool = false,
        delay: MediaTime = .zero, offset: MediaTime = .zero, encoding: TextEncoding? = nil, rate: ClockRate = .one,
        characteristics: MediaCharacteristics = .none
    ) throws(RegistrationError) {
        var problems: [RegistrationError] = []
        var fields = Fields(
            source: source, id: id, language: language ?? .undetermined, name: name, format: format,
            isForced: isForced, isSDH: isSDH, isDefault: isDefault, delay: delay, offset: offset, encoding: encoding, rate: rate)
        fields.characteristics = characteristics
        guard let track = Self.check(fields, origin: "track", problems: &problems), problems.isEmpty else {
            throw problems.first ?? RegistrationError(.invalidValue, descriptor: "track", "the track is not valid")
        }
        self = track
    }

    private init(
        sourceID: String, source: SubtitleSource, language: LanguageTag, label: String, labelIsDerived: Bool,
        declaredFormat: SubtitleFormat?, format: SubtitleFormat, isDefault: Bool, isForced: Bool,
        characteristics: MediaCharacteristics, delay: MediaTime, offset: MediaTime, encoding: TextEncoding?, notes: [String]
    ) {
        self.sourceID = sourceID
        self.source = source
        self.language = language
        self.label = label
        self.labelIsDerived = labelIsDerived
        self.declaredFormat = declaredFormat
        self.format = format
        self.isDefault = isDefault
        self.isForced = isForced
        self.characteristics = characteristics
        self.delay = delay
        self.offset = offset
        self.encoding = encoding
        self.notes = notes
    }

    /// `external:<sourceID>:<languageTag>`: how Subweave recognises its own rendition on a later
    /// run (its folder is derived from it: ``RenditionLayout/folder(for:)``).
    public var identity: RenditionIdentity { .external(sourceID: sourceID, language: language) }

    /// The track in `language` (a TTML document's `xml:lang`, when the descriptor gave none): its
    /// identity follows, and a derived label is derived again.
    func adopting(language: LanguageTag) -> SubtitleTrack {
        var label = self.label
        if labelIsDerived {
            label = (language.autonym ?? language.description) + (isSDH ? " (SDH)" : "") + (isForced ? " (Forced)" : "")
        }
        var track = SubtitleTrack(
            sourceID: sourceID, source: source, language: language, label: label, labelIsDerived: labelIsDerived, declaredFormat: declaredFormat,
            format: format, isDefault: isDefault, isForced: isForced, characteristics: characteristics, delay: delay, offset: offset,
            encoding: encoding, notes: notes)
        track.rate = rate
        track.fps = fps
        track.service = service
        track.information = information + ["language \(language) from the file's xml:lang"]
        return track
    }

    /// The track with its clock set to `rate` and `offset` (and no delay): what a sync fix makes.
    package func retimed(rate: ClockRate, offset: MediaTime, note: String) -> SubtitleTrack {
        var track = SubtitleTrack(
            sourceID: sourceID, source: source, language: language, label: label, labelIsDerived: labelIsDerived, declaredFormat: declaredFormat,
            format: format, isDefault: isDefault, isForced: isForced, characteristics: characteristics, delay: .zero, offset: offset,
            encoding: encoding, notes: notes + [note])
        track.rate = rate
        track.fps = fps
        track.service = service
        return track
    }

    /// A cue time of the file on the programme's clock: divided by the rate, then the offset and
    /// the delay added.
    package var timing: (rate: ClockRate, shift: MediaTime) { (rate, offset + delay) }

    /// The typed values a track is made of, before they are checked.
    struct Fields {
        var source: SubtitleSource
        var id: String?
        var language: LanguageTag
        var name: String?
        var format: SubtitleFormat?
        var isForced = false
        var isSDH = false
        /// Characteristics named besides the SDH pair, in the order given.
        var characteristics = MediaCharacteristics.none
        var isDefault = false
        var delay = MediaTime.zero
        var offset = MediaTime.zero
        var encoding: TextEncoding?
        var rate = ClockRate.one
        var fps: TimecodeRate?
        var service: CaptionService?
        /// The delay as written, for the clamping note.
        var delayText: String?

        /// `sdh` said, or both characteristics of the SDH pair named.
        var saysSDH: Bool {
            isSDH
                || (characteristics.contains(MediaCharacteristics.transcribesSpokenDialog)
                    && characteristics.contains(MediaCharacteristics.describesMusicAndSound))
        }
    }

    /// What is wrong with a source ID, if anything: empty, unsafe in a file name or playlist,
    /// shaped like a path, or too long for its folder name.
    static func sourceIDProblem(_ id: String, language: LanguageTag) -> (code: RegistrationError.Code, text: String)? {
        if id.trimmingCharacters(in: .whitespaces).isEmpty {
            return (.emptySourceID, "the source ID is empty; set id=… (by default it is the file name without its extension)")
        } else if let bad = id.unicodeScalars.first(where: { LabelText.isRefused($0) || $0 == "\"" }) {
            return (
                .unsafeText,
                "the source ID contains \(LabelText.describe(bad)), which cannot appear in a file name or playlist; use letters, digits, '.', '_' or '-'"
            )
        } else if id == "." || id == ".." || id.contains("/") || id.contains("\\") {
            return (
                .unsafeText,
                "the source ID \"\(LabelText.excerpt(id))\" looks like a path; it names a folder inside the output, so it cannot contain '/' or be '.' or '..'"
            )
        } else if let length = Optional(RenditionLayout.folderNameLength(sourceID: id, language: language)), length > 255 {
            return (
                .invalidValue,
                "the source ID is \(id.utf8.count) bytes long; with the language it names a folder of \(length) bytes, and file names are limited to 255 bytes: shorten id="
            )
        }
        return nil
    }

    /// The menu label: the operator's `name=`, checked, or one derived from the language (a TTML
    /// file without a name or language takes both from the document); problems are appended.
    static func menuLabel(_ fields: Fields, format: SubtitleFormat?, origin: String, problems: inout [RegistrationError]) -> (label: String, derived: Bool) {
        func fail(_ code: RegistrationError.Code, _ text: String) { problems.append(RegistrationError(code, descriptor: origin, text)) }
        var label = fields.name ?? ""
        var derived = false
        if fields.name == nil, fields.language.isUndetermined, format == .ttml {
            // A TTML document names its language (xml:lang): label and language come from the file.
            derived = true
        } else if fields.name == nil {
            if let autonym = fields.language.autonym {
                label = autonym + (fields.saysSDH ? " (SDH)" : "") + (fields.isForced ? " (Forced)" : "")
                derived = true
            } else {
                fail(
                    .emptyLabel,
                    fields.language.isUndetermined
                        ? "name= is required: language und (unknown) has no name to derive the menu label from"
                        : "name= is required: no known name for language \"\(fields.language)\"")
            }
        } else if label.trimmingCharacters(in: .whitespaces).isEmpty {
            fail(.emptyLabel, "name= is empty; the NAME attribute is the label players show in the subtitle menu")
        } else if let bad = label.unicodeScalars.first(where: { LabelText.isRefused($0) || $0 == "\"" }) {
            fail(.unsafeText, "name \"\(LabelText.excerpt(label))\" contains \(LabelText.describe(bad)); \(LabelText.reason(bad))")
        }
        label = label.trimmingCharacters(in: .whitespaces)
        return (label, derived)
    }

    /// The track's characteristics: the SDH pair when `sdh` is said, then the others named.
    ///
    /// Each must be a well-formed UTI; half of the SDH pair alone is refused (Apple HLS Authoring
    /// Spec 4.5: SDH subtitles carry both; say `sdh`), and so is
    /// `public.accessibility.describes-video`, a characteristic of audio renditions.
    static func characteristics(_ fields: Fields, origin: String, problems: inout [RegistrationError]) -> MediaCharacteristics {
        func fail(_ text: String) { problems.append(RegistrationError(.invalidValue, descriptor: origin, text)) }
        let named = fields.characteristics
        for value in named.values where !MediaCharacteristics.isWellFormed(value) {
            fail(
                "characteristic \"\(LabelText.excerpt(value))\" is not a Uniform Type Identifier (reverse-DNS labels of letters, digits and '-' joined by dots, such as public.easy-to-read)"
            )
        }
        let pair = [MediaCharacteristics.transcribesSpokenDialog, MediaCharacteristics.describesMusicAndSound]
        let halves = pair.filter(named.contains)
        if !fields.saysSDH, halves.count == 1 {
            fail(
                "characteristic \(halves[0]) alone is half of the SDH pair (Apple HLS Authoring Spec 4.5: SDH subtitles carry both); write sdh for subtitles for the deaf and hard of hearing"
            )
        }
        if named.contains(MediaCharacteristics.describesVideo) {
            fail("characteristic \(MediaCharacteristics.describesVideo) describes audio description; a subtitle rendition cannot carry it")
        }
        let others = MediaCharacteristics(values: named.values.filter { !pair.contains($0) })
        return fields.saysSDH ? MediaCharacteristics.sdh.union(others) : others
    }

    /// Checks `fields` and makes the track, appending every problem found to `problems`.
    static func check(_ fields: Fields, origin: String, problems: inout [RegistrationError]) -> SubtitleTrack? {
        func fail(_ code: RegistrationError.Code, _ text: String) { problems.append(RegistrationError(code, descriptor: origin, text)) }
        let before = problems.count

        let id = fields.id ?? fields.source.defaultID
        if let problem = sourceIDProblem(id, language: fields.language) { fail(problem.code, problem.text) }

        let format = fields.format ?? SubtitleFormat.inferred(fromPath: fields.source.pathForExtension)
        let (label, derived) = menuLabel(fields, format: format, origin: origin, problems: &problems)

        if format == nil {
            fail(
                .indeterminateFormat,
                "cannot tell the format of \(LabelText.excerpt(fields.source.description)): the URL path has no .vtt, .webvtt, .srt, .scc, .mcc, .stl, .ass, .ssa, .ttml, .dfxp or .xml extension (the query string is never read); declare format=vtt, srt, scc, mcc, stl, ass or ttml"
            )
        }

        var delay = fields.delay
        var notes: [String] = []
        if delay > maximumDelay || delay < -maximumDelay {
            let clamped = delay > .zero ? maximumDelay : -maximumDelay
            notes.append(
                "delay=\(fields.delayText ?? delay.decimalSeconds) s clamped to \(clamped.decimalSeconds) s (at most ±10 s; a larger shift usually means the wrong file; use offset= to move a timecoded file)"
            )
            delay = clamped
        }
        if let fps = fields.fps, let format, !format.hasTimecodes {
            fail(.invalidValue, "fps=\(fps) applies to timecoded files (SCC, MCC, EBU STL); this track is \(format.rawValue), whose times are clock times")
        }
        if let service = fields.service, let format, format != .scc, format != .mcc {
            fail(.invalidValue, "service=\(service) applies to caption files (SCC, MCC); this track is \(format.rawValue)")
        }
        let characteristics = Self.characteristics(fields, origin: origin, problems: &problems)
        guard problems.count == before, let format else { return nil }
        var track = SubtitleTrack(
            sourceID: id, source: fields.source, language: fields.language, label: label, labelIsDerived: derived,
            declaredFormat: fields.format, format: format, isDefault: fields.isDefault, isForced: fields.isForced,
            characteristics: characteristics, delay: delay, offset: fields.offset, encoding: fields.encoding, notes: notes)
        track.rate = fields.rate
        track.fps = fields.fps
        track.service = fields.service
        return track
    }
}

/// Where a subtitle file is.
public enum SubtitleSource: Sendable, Equatable, CustomStringConvertible {
    /// A local file.
    case file(URL)
    /// An `http://` or `https://` URL.
    case remote(URL)

    /// The URL.
    public var url: URL {
        switch self {
        case .file(let url), .remote(let url): return url
        }
    }

    public var description: String {
        switch self {
        case .file(let url): return url.path
        case .remote(let url): return url.absoluteString
        }
    }

    /// The path component used to infer the format: never the query string.
    public var pathForExtension: String { url.path }

    /// The file name without its extension: the default source ID.
    var defaultID: String {
        let name = url.lastPathComponent
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name }
        return String(name[..<dot])
    }

    /// Reads a `url=` value: a plain path (relative to the current folder), `file://`, `http://`
    /// or `https://`.
    public init(parsing text: String) throws(RegistrationError) {
        func error(_ code: RegistrationError.Code, _ message: String) -> RegistrationError {
            RegistrationError(code, descriptor: "", message)
        }
        let shown = LabelText.excerpt(text)
        if text.hasPrefix("//") {
            throw error(.malformedURL, "\"\(shown)\" is a scheme-relative URL; write http://… or https://…, or a local path")
        }
        if text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            throw error(.malformedURL, "\"\(shown)\" contains a control character")
        }
        if let colon = text.firstIndex(of: ":"), text[..<colon].allSatisfy({ $0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == "." }),
            text[..<colon].count >= 2, text.first?.isLetter == true
        {
            let scheme = text[..<colon].lowercased()
            let rest = text[text.index(after: colon)...]
            switch scheme {
            case "http", "https":
                guard rest.hasPrefix("//"), let url = URL(string: text), let host = url.host, !host.isEmpty else {
                    throw error(.malformedURL, "\"\(shown)\" is not a valid \(scheme) URL; expected \(scheme)://host/path/file.vtt")
                }
                self = .remote(url)
            case "file":
                guard let url = URL(string: text), rest.hasPrefix("//") else {
                    throw error(.malformedURL, "\"\(shown)\" is not a valid file URL; expected file:///absolute/path/file.srt")
                }
                guard url.host == nil || url.host == "" || url.host == "localhost" else {
                    throw error(.malformedURL, "\"\(shown)\" names host \"\(url.host ?? "")\"; file URLs must be local (file:///path)")
                }
                self = .file(URL(fileURLWithPath: url.path))
            default:
                throw error(.unsupportedScheme, "scheme \"\(LabelText.excerpt(scheme)):\" is not supported; use a local path, file://, http:// or https://")
            }
            return
        }
        if text.lowercased().hasPrefix("www.") {
            throw error(.malformedURL, "\"\(shown)\" looks like a web address without a scheme; write https://\(shown)")
        }
        self = .file(URL(fileURLWithPath: text))
    }
}

/// The subtitle formats Subweave reads.
public enum SubtitleFormat: String, Sendable, CaseIterable {
    case vtt, srt, scc
    /// Advanced SubStation Alpha and SubStation Alpha (`.ass`, `.ssa`).
    case ass
    /// TTML: IMSC 1.0.1 and 1.1 Text Profile, EBU-TT-D, DFXP, SMPTE-TT (`.ttml`, `.dfxp`, `.xml`).
    case ttml
    /// MacCaption (`.mcc`): CEA-608 and CEA-708 caption data by timecode.
    case mcc
    /// EBU STL (EBU Tech 3264, `.stl`): binary GSI and TTI blocks.
    case stl
    /// VobSub (`.idx` with its `.sub` beside it): DVD subtitle pictures, read as text by OCR.
    case vobSub = "vobsub"
    /// Blu-ray presentation graphics (`.sup`): subtitle pictures, read as text by OCR.
    case pgs
    /// DVB subtitles (EN 300 743) in an MPEG-TS file (`.ts`): subtitle pictures, read as text by OCR.
    case dvbSub = "dvbsub"

    /// The format a path's extension names (`.vtt`, `.webvtt`, `.srt`, `.scc`, `.ass`, `.ssa`,
    /// `.ttml`, `.dfxp`, `.xml`), or nil.
    public static func inferred(fromPath path: String) -> SubtitleFormat? {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        return SubtitleFormat(label: String(name[name.index(after: dot)...]))
    }

    /// The format a name such as `vtt`, `WebVTT` or `srt` stands for.
    public init?(label: String) {
        switch label.lowercased() {
        case "vtt", "webvtt": self = .vtt
        case "srt", "subrip": self = .srt
        case "scc": self = .scc
        case "ass", "ssa": self = .ass
        case "ttml", "dfxp", "xml", "imsc", "smpte-tt", "ebu-tt-d": self = .ttml
        case "mcc": self = .mcc
        case "stl", "ebu-stl", "ebustl": self = .stl
        case "idx", "vobsub": self = .vobSub
        case "sup", "pgs": self = .pgs
        case "ts", "dvbsub", "dvb": self = .dvbSub
        default: return nil
        }
    }

    /// Whether the format is pictures, read as text by OCR (``PictureSubtitles``).
    public var isPictures: Bool { self == .vobSub || self == .pgs || self == .dvbSub }

    /// Whether the format times its data by frame timecodes, whose rate `fps=` declares.
    public var hasTimecodes: Bool { self == .scc || self == .mcc || self == .stl }
}
