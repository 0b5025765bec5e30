import Timebase

/// What a cue shows, in no format's terms: lines of styled text runs, ruby, and the box the source
/// placed them in.
///
/// Every reader's cues have one (``Cue/content``). A reader whose source says more than WebVTT
/// cue text can hold (a TTML delivery's colours, fonts and regions) keeps it on the cue; for the
/// others it is read back from the cue's WebVTT text, which holds all they said. Writers make
/// their format from it and name what their format cannot hold: ``webVTT(dropping:)`` and the
/// IMSC1 writer.
///
/// ```swift
/// let content = CueContent(webVTT: "<c.yellow><i>Hello</i></c>\nworld")
/// // lines: [[.text("Hello", italic, yellow)], [.text("world", plain)]]
/// ```
public struct CueContent: Sendable, Equatable {
    /// The lines, top to bottom; each a sequence of runs.
    public var lines: [[CueRun]]
    /// The box the source placed the text in (a TTML region), kept as the source gave it; nil
    /// when the source placed text with WebVTT's settings or not at all (then the cue's
    /// ``Cue/settings`` place it).
    public var box: CueBox?

    /// Content of `lines` in `box`.
    public init(lines: [[CueRun]], box: CueBox? = nil) {
        self.lines = lines
        self.box = box
    }

    /// The plain text: runs joined, ruby bases without their annotations, lines joined by LF.
    public var plainText: String {
        lines.map { $0.map(\.plainText).joined() }.joined(separator: "\n")
    }
}

/// One piece of a line: styled text, a ruby annotation over styled base text, or a karaoke
/// timestamp between words.
public enum CueRun: Sendable, Equatable {
    case text(String, CueStyle)
    /// Base text with its annotation (ruby text), shown above the base in horizontal text
    /// unless `position` says otherwise.
    indirect case ruby(base: [CueRun], annotation: [CueRun], position: CueStyle.RubyPosition)
    /// A WebVTT karaoke timestamp, as written (`00:01.500`): the text after it shows from then.
    case timestamp(String)

    /// The run's text without ruby annotations or timestamps.
    public var plainText: String {
        switch self {
        case .text(let text, _): return text
        case .ruby(let base, _, _): return base.map(\.plainText).joined()
        case .timestamp: return ""
        }
    }
}

/// How a run of text looks, and who says it in which language.
///
/// Values keep the source's own words where no format needs them changed (`fontSize` as `"80%"`
/// or `"1c"`, a font family list as written), so each writer decides what it can carry.
public struct CueStyle: Sendable, Hashable {
    /// Where a ruby annotation goes (TTML2 `tts:rubyPosition`; WebVTT has no choice).
    public enum RubyPosition: String, Sendable, Hashable {
        case before, after
    }

    public var italic = false
    public var bold = false
    public var underline = false
    /// The text's colour; nil for the player's default (white).
    public var colour: CueColour?
    /// The colour behind the text; nil for the player's default.
    public var background: CueColour?
    /// TTML `tts:fontFamily` as written (`"proportionalSansSerif, Arial"`).
    public var fontFamily: String?
    /// TTML `tts:fontSize` as written (`"80%"`, `"1c"`, `"24px"`).
    public var fontSize: String?
    /// TTML `tts:textOutline` as written (`"black 2px"`).
    public var textOutline: String?
    /// The language of the run when it differs from the track's (BCP 47).
    public var language: String?
    /// The speaker (WebVTT `<v>`).
    public var voice: String?
    /// WebVTT classes other than the eight colours and backgrounds: names a style sheet may use.
    public var classes: [String] = []

    /// The default look: no property set.
    public init() {}

    /// Whether no property is set.
    public var isPlain: Bool { self == CueStyle() }
}

/// An sRGB colour with alpha, as TTML and CSS write them.
public struct CueColour: Sendable, Hashable, CustomStringConvertible {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8
    public var alpha: UInt8

    /// A colour of the four components (alpha 255 is opaque).
    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// A TTML or CSS colour: `#rgb`, `#rrggbb`, `#rrggbbaa`, `rgb(r,g,b)`, `rgba(r,g,b,a)` (TTML's
    /// alpha is 0-255) or a TTML named colour (TTML2 §10.3.5); nil for anything else.
    public init?(_ text: String) {
        let trimmed = text.trimming(.asciiWhitespace)
        if trimmed.hasPrefix("#") {
            guard let colour = Self.hex(Array(trimmed.utf8.dropFirst())) else { return nil }
            self = colour
            return
        }
        let v = trimmed.lowercased()
        if v.hasPrefix("rgb(") || v.hasPrefix("rgba("), v.hasSuffix(")") {
            let inner = v.drop { $0 != "(" }.dropFirst().dropLast()
            let numbers = inner.split(separator: ",", omittingEmptySubsequences: false).map { UInt8(String($0.trimming(.asciiWhitespace))) }
            let expected = v.hasPrefix("rgba(") ? 4 : 3
            guard numbers.count == expected, let r = numbers[0], let g = numbers[1], let b = numbers[2] else { return nil }
            guard let a = expected == 4 ? numbers[3] : 255 else { return nil }
            self.init(red: r, green: g, blue: b, alpha: a)
            return
        }
        guard let named = Self.named[v] else { return nil }
        self = named
    }

    /// The colour of the hexadecimal digits after `#`: 3 (`rgb`), 6 or 8 (with alpha); read on
    /// their bytes.
    private static func hex(_ digits: [UInt8]) -> CueColour? {
        func nibble(_ b: UInt8) -> UInt8? {
            switch b {
            case 0x30...0x39: return b - 0x30
            case 0x61...0x66: return b - 0x61 + 10
            case 0x41...0x46: return b - 0x41 + 10
            default: return nil
            }
        }
        let values = digits.compactMap(nibble)
        guard values.count == digits.count else { return nil }
        switch values.count {
        case 3: return CueColour(red: values[0] * 17, green: values[1] * 17, blue: values[2] * 17)
        case 6, 8:
            let bytes = stride(from: 0, to: values.count, by: 2).map { values[$0] << 4 | values[$0 + 1] }
            return CueColour(red: bytes[0], green: bytes[1], blue: bytes[2], alpha: bytes.count == 4 ? bytes[3] : 255)
        default: return nil
        }
    }

    /// TTML's named colours (TTML2 §10.3.5, the CSS basic colours with `magenta` and `cyan`).
    static let named: [String: CueColour] = [
        "transparent": CueColour(red: 0, green: 0, blue: 0, alpha: 0), "black": CueColour(red: 0, green: 0, blue: 0),
        "silver": CueColour(red: 192, green: 192, blue: 192), "gray": CueColour(red: 128, green: 128, blue: 128),
        "white": CueColour(red: 255, green: 255, blue: 255), "maroon": CueColour(red: 128, green: 0, blue: 0),
        "red": CueColour(red: 255, green: 0, blue: 0), "purple": CueColour(red: 128, green: 0, blue: 128),
        "fuchsia": CueColour(red: 255, green: 0, blue: 255), "magenta": CueColour(red: 255, green: 0, blue: 255),
        "green": CueColour(red: 0, green: 128, blue: 0), "lime": CueColour(red: 0, green: 255, blue: 0),
        "olive": CueColour(red: 128, green: 128, blue: 0), "yellow": CueColour(red: 255, green: 255, blue: 0),
        "navy": CueColour(red: 0, green: 0, blue: 128), "blue": CueColour(red: 0, green: 0, blue: 255),
        "teal": CueColour(red: 0, green: 128, blue: 128), "aqua": CueColour(red: 0, green: 255, blue: 255),
        "cyan": CueColour(red: 0, green: 255, blue: 255),
    ]

    /// The name of WebVTT's default colour class (WebVTT §7.3: `white`, `lime`, `cyan`, `red`,
    /// `yellow`, `magenta`, `blue`, `black`) for this colour, when it is one of them and opaque.
    public var webVTTClass: String? {
        guard alpha == 255 else { return nil }
        return Self.webVTTClasses.first { $0.1 == self }?.0
    }

    /// WebVTT's eight default colours (WebVTT §7.3), in its order.
    static let webVTTClasses: [(String, CueColour)] = [
        ("white", CueColour(red: 255, green: 255, blue: 255)), ("lime", CueColour(red: 0, green: 255, blue: 0)),
        ("cyan", CueColour(red: 0, green: 255, blue: 255)), ("red", CueColour(red: 255, green: 0, blue: 0)),
        ("yellow", CueColour(red: 255, green: 255, blue: 0)), ("magenta", CueColour(red: 255, green: 0, blue: 255)),
        ("blue", CueColour(red: 0, green: 0, blue: 255)), ("black", CueColour(red: 0, green: 0, blue: 0)),
    ]

    /// The colour of a WebVTT default colour class (`yellow`), if `name` is one.
    public init?(webVTTClass name: String) {
        guard let colour = Self.webVTTClasses.first(where: { $0.0 == name })?.1 else { return nil }
        self = colour
    }

    /// `#rrggbb`, or `#rrggbbaa` when not opaque (what TTML writes).
    public var description: String {
        let hex = [red, green, blue] + (alpha == 255 ? [] : [alpha])
        return "#" + hex.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }
}

/// The box a source placed a cue's text in (a TTML region): percentages of the video frame.
public struct CueBox: Sendable, Hashable {
    /// Where the text sits across the box's height (TTML `tts:displayAlign`).
    public enum DisplayAlign: String, Sendable, Hashable {
        case before, center, after
    }

    /// The direction of lines and of text (TTML `tts:writingMode`).
    public enum WritingMode: String, Sendable, Hashable {
        case lrtb, rltb, tbrl, tblr

        /// Whether text runs top to bottom (lines are columns).
        public var isVertical: Bool { self == .tbrl || self == .tblr }
    }

    /// The alignment of text within a line (TTML `tts:textAlign`).
    public enum TextAlign: String, Sendable, Hashable {
        case left, center, right, start, end
    }

    /// The top-left corner, percentages of the frame's width and height (0-100).
    public var left: Double
    public var top: Double
    /// The size, percentages of the frame's width and height (0-100).
    public var width: Double
    public var height: Double
    public var displayAlign: DisplayAlign
    public var writingMode: WritingMode
    /// Nil when the source did not say (TTML's default is `start`).
    public var textAlign: TextAlign?

    /// A box at `left`,`top` of `width` × `height` (percentages), its text as given.
    public init(
        left: Double, top: Double, width: Double, height: Double, displayAlign: DisplayAlign = .before, writingMode: WritingMode = .lrtb,
        textAlign: TextAlign? = nil
    ) {
        self.left = left
        self.top = top
        self.width = width
        self.height = height
        self.displayAlign = displayAlign
        self.writingMode = writingMode
        self.textAlign = textAlign
    }
}
