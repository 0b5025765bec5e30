import Timebase

/// One timed piece of text: the unit every reader produces and every writer consumes.
///
/// Times are on the subtitle file's own timeline (0 is the first frame of the programme).
/// What it shows is ``content``, the format-neutral model every writer is made from; `text` is its
/// WebVTT cue text (markup such as `<i>` and `&amp;` included, lines separated by LF), which every
/// stage that looks at words (sync, segmenting, reports) reads. A reader whose source says more
/// than WebVTT can (TTML colours, fonts, regions) keeps the content on the cue; for the others it
/// is read back from `text`, which holds all they said.
public struct Cue: Sendable, Equatable {
    /// The WebVTT cue identifier, or empty.
    public var identifier: String
    public var start: MediaTime
    public var end: MediaTime
    public var settings: CueSettings {
        get { extras?.settings ?? CueSettings() }
        set { extras = Extras.make(newValue, extras?.content) }
    }
    /// Whether the cue has any setting (without making the settings).
    package var hasSettings: Bool { extras?.settings.isEmpty == false }
    /// What the cue shows, in no format's terms: the content its reader kept, else its WebVTT
    /// text read back (``CueContent/init(webVTT:)``).
    public var content: CueContent {
        extras?.content ?? CueContent(webVTT: text)
    }
    /// The content its reader kept because `text` cannot say all of it, or nil.
    public var keptContent: CueContent? {
        get { extras?.content }
        set { extras = Extras.make(settings, newValue) }
    }
    /// The `NOTE` block that carries the kept content in a WebVTT file, written right before
    /// the cue (``CueContent/attachingNotes(to:from:)`` reads it back); nil without kept content.
    public var contentNote: String? {
        keptContent.map { CueContent.notePrefix + $0.noteJSON(hash: CueContent.hash(of: self)) }
    }
    /// Settings and kept content, out of line when there are any: most cues have neither, and a
    /// cue list of millions is then about half the size.
    private var extras: Extras?
    /// WebVTT cue text, valid per the WebVTT cue text syntax once it has been through
    /// ``CueText/repaired(_:)``.
    ///
    /// Changing it lets the kept content go: the text then says what the cue shows.
    public var text: String {
        didSet {
            if extras?.content != nil, text != oldValue { keptContent = nil }
        }
    }
    /// The 1-based line of the source file where the cue's timing line is, for warnings (nil for
    /// none; a line outside 0…4,294,967,294, which no file within the read limits has, is kept as nil).
    public var sourceLine: Int? {
        get { storedLine == 0 ? nil : Int(storedLine - 1) }
        set { storedLine = Self.stored(newValue) }
    }
    /// `sourceLine` + 1, or 0 for nil: four bytes instead of nine (a cue list of millions is
    /// an eighth smaller).
    private var storedLine: UInt32

    /// A cue from `start` to `end` showing `text` (WebVTT cue text).
    public init(identifier: String = "", start: MediaTime, end: MediaTime, settings: CueSettings = CueSettings(), text: String, sourceLine: Int? = nil) {
        self.identifier = identifier
        self.start = start
        self.end = end
        self.extras = Extras.make(settings, nil)
        self.text = text
        self.storedLine = Self.stored(sourceLine)
    }

    private static func stored(_ line: Int?) -> UInt32 {
        guard let line, line >= 0, line < Int(UInt32.max) else { return 0 }
        return UInt32(line + 1)
    }

    public static func == (a: Cue, b: Cue) -> Bool {
        a.identifier == b.identifier && a.start == b.start && a.end == b.end && a.text == b.text && a.sourceLine == b.sourceLine
            && (a.extras === b.extras || (a.settings == b.settings && a.keptContent == b.keptContent))
    }
}

extension Array where Element == Cue {
    /// Sorts the cues by start time, keeping file order among equal starts.
    ///
    /// An ordered list (most files) is only checked, not copied. Returns whether any cue moved.
    @discardableResult
    package mutating func sortByStart() -> Bool {
        // By index, reading the start only (a whole cue copied would be retained).
        guard indices.dropFirst().contains(where: { self[$0 - 1].start > self[$0].start }) else { return false }
        self = enumerated().sorted { ($0.element.start, $0.offset) < ($1.element.start, $1.offset) }.map(\.element)
        return true
    }
}

/// A cue's settings and kept content, shared by copies of the cue (never changed once made).
private final class Extras: Sendable {
    let settings: CueSettings
    let content: CueContent?
    private init(_ settings: CueSettings, _ content: CueContent?) {
        self.settings = settings
        self.content = content
    }

    /// Extras of `settings` and `content`, or nil when there are none.
    static func make(_ settings: CueSettings, _ content: CueContent?) -> Extras? {
        settings.isEmpty && content == nil ? nil : Extras(settings, content)
    }
}

/// WebVTT cue settings (W3C WebVTT §4.4 "WebVTT cue settings"), each nil when absent (`auto`).
///
/// Numbers keep the text they were written with (`12.5`), validated by the parser, so writing a
/// cue back does not reformat them.
public struct CueSettings: Sendable, Equatable {
    public enum Vertical: String, Sendable { case rl, lr }
    public enum LineAlign: String, Sendable { case start, center, end }
    public enum PositionAlign: String, Sendable { case lineLeft = "line-left", center, lineRight = "line-right" }
    public enum Align: String, Sendable { case start, center, end, left, right }

    /// The `line` setting: a line number (snap-to-lines) or a percentage.
    public enum Line: Sendable, Equatable {
        case number(String)
        case percentage(String)
    }

    public var vertical: Vertical?
    public var line: Line?
    public var lineAlign: LineAlign?
    /// Percentage of the `position` setting, without `%`.
    public var position: String?
    public var positionAlign: PositionAlign?
    /// Percentage of the `size` setting, without `%`.
    public var size: String?
    public var align: Align?
    /// Identifier of the region the cue renders in.
    public var region: String?

    /// Settings; each nil setting is absent (`auto`).
    public init(
        vertical: Vertical? = nil, line: Line? = nil, lineAlign: LineAlign? = nil, position: String? = nil,
        positionAlign: PositionAlign? = nil, size: String? = nil, align: Align? = nil, region: String? = nil
    ) {
        self.vertical = vertical
        self.line = line
        self.lineAlign = lineAlign
        self.position = position
        self.positionAlign = positionAlign
        self.size = size
        self.align = align
        self.region = region
    }

    /// True when no setting is present (each field looked at in place: no empty settings made
    /// and compared, once per cue read).
    public var isEmpty: Bool {
        vertical == nil && line == nil && lineAlign == nil && position == nil && positionAlign == nil && size == nil && align == nil
            && region == nil
    }

    /// The settings as written after a WebVTT timing line (`line:0 align:start`), in a fixed order.
    public var text: String {
        var bytes: [UInt8] = []
        write(into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends ``text``'s UTF-8 to `bytes`, made in place (no string per setting): the cue
    /// writers call it once per cue.
    package func write(into bytes: inout [UInt8]) {
        var first = true
        func name(_ name: StaticString) {
            if !first { bytes.append(0x20) }
            first = false
            bytes.append(contentsOf: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
            bytes.append(0x3A)
        }
        func value(_ text: String) { bytes.append(contentsOf: text.utf8) }
        let percent: UInt8 = 0x25, comma: UInt8 = 0x2C
        if let region {
            name("region")
            value(region)
        }
        if let vertical {
            name("vertical")
            value(vertical.rawValue)
        }
        if let line {
            name("line")
            switch line {
            case .number(let n): value(n)
            case .percentage(let p):
                value(p)
                bytes.append(percent)
            }
            if let lineAlign {
                bytes.append(comma)
                value(lineAlign.rawValue)
            }
        }
        if let position {
            name("position")
            value(position)
            bytes.append(percent)
            if let positionAlign {
                bytes.append(comma)
                value(positionAlign.rawValue)
            }
        }
        if let size {
            name("size")
            value(size)
            bytes.append(percent)
        }
        if let align {
            name("align")
            value(align.rawValue)
        }
    }
}

/// A WebVTT region definition (W3C WebVTT §4.5 "WebVTT region settings").
public struct CueRegion: Sendable, Equatable {
    public var identifier: String
    /// Percentage, without `%`; nil means the default 100.
    public var width: String?
    /// Number of lines; nil means the default 3.
    public var lines: String?
    /// `x,y` percentages without `%`; nil means the default 0,100.
    public var regionAnchor: (String, String)?
    /// `x,y` percentages without `%`; nil means the default 0,100.
    public var viewportAnchor: (String, String)?
    public var scrollUp: Bool

    /// A region named `identifier` with every other setting at its default.
    public init(identifier: String) {
        self.identifier = identifier
        self.scrollUp = false
    }

    /// The region as a `REGION` block (without a trailing blank line).
    public var block: String {
        var settings = ["id:\(identifier)"]
        if let width { settings.append("width:\(width)%") }
        if let lines { settings.append("lines:\(lines)") }
        if let (x, y) = regionAnchor { settings.append("regionanchor:\(x)%,\(y)%") }
        if let (x, y) = viewportAnchor { settings.append("viewportanchor:\(x)%,\(y)%") }
        if scrollUp { settings.append("scroll:up") }
        return "REGION\n" + settings.joined(separator: " ")
    }

    public static func == (a: CueRegion, b: CueRegion) -> Bool {
        a.identifier == b.identifier && a.width == b.width && a.lines == b.lines
            && a.regionAnchor?.0 == b.regionAnchor?.0 && a.regionAnchor?.1 == b.regionAnchor?.1
            && a.viewportAnchor?.0 == b.viewportAnchor?.0 && a.viewportAnchor?.1 == b.viewportAnchor?.1
            && a.scrollUp == b.scrollUp
    }
}

/// Something a reader noticed and repaired or skipped, with the line it concerns.
public struct IngestWarning: Sendable, Equatable, CustomStringConvertible {
    /// What kind of thing it was; the raw value is the stable, machine-readable name.
    public enum Kind: String, Sendable, Codable, CaseIterable {
        case cueClamped = "cue_clamped"
        case cueSkipped = "cue_skipped"
        case cuesAfterEnd = "cues_after_end"
        case cuesNotYetPublished = "cues_not_yet_published"
        case cuesReordered = "cues_reordered"
        case duplicateIdentifier = "duplicate_identifier"
        case emptyCue = "empty_cue"
        case encodingFallback = "encoding_fallback"
        case firstCueAtZero = "first_cue_at_zero"
        case invalidBytes = "invalid_bytes"
        case lineSkipped = "line_skipped"
        case markupRepaired = "markup_repaired"
        case servicesIgnored = "services_ignored"
        case settingDropped = "setting_dropped"
        case timecodeOverlap = "timecode_overlap"
        case timestampMapIgnored = "timestamp_map_ignored"
        case timecodedSource = "timecoded_source"
        case wordSkipped = "word_skipped"
        case backwardCue = "backward_cue"
        case captionNotErased = "caption_not_erased"
        /// Text was there but no cue came of it (the wrong format or encoding, most likely).
        case noCueFound = "no_cue_found"
        /// The content shows another format than the file's extension names; read by its content.
        case formatFromContent = "format_from_content"
        /// Control characters (BEL, ESC, …) that are not text were left out of the cues.
        case controlCharacters = "control_characters"
        /// Timecodes that do not fit the declared frame rate (frame 27 at 25 fps, `;` at 25 fps).
        case timecodeRate = "timecode_rate"
        /// A subtitle picture that could not be decoded, or in which OCR read no text.
        case pictureSkipped = "picture_skipped"
        /// A cue OCR read with a confidence below the threshold: a person should check it.
        case lowConfidence = "low_confidence"
    }

    public let kind: Kind
    /// The 1-based source line, when there is one.
    public let line: Int?
    public let message: String

    /// A warning of `kind` about 1-based `line` (or the whole file).
    public init(kind: Kind, line: Int?, _ message: String) {
        self.kind = kind
        self.line = line
        self.message = message
    }

    public var description: String {
        if let line { return "line \(line): \(message)" }
        return message
    }
}
