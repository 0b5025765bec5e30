import Foundation
import Timebase

/// How a rendition's segment files are named: a template with `{n}` where the segment's number
/// goes (five digits or more, zero-padded), the format's extension added (`.vtt`, `.m4s`).
///
/// The default, `{n}`, gives `00000.vtt`, `00001.vtt`, …; `seg-{n}` gives `seg-00000.vtt`. A
/// template holds `{n}` exactly once and otherwise letters, digits, `.`, `_` and `-` (a file name
/// every web server serves as is, never a path); it may not begin with a dot. Since the number
/// differs, no two segments of a rendition can share a name, and no segment can be named as the
/// files beside them (`index.m3u8`, `init.mp4`, `cues.vtt`, `rendition.json`).
public struct SegmentNameTemplate: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The template as written.
    public let text: String
    /// The text before and after `{n}` (which a template holds exactly once), split once.
    private let before: String, after: String

    /// `{n}`: the number alone.
    public static let standard = SegmentNameTemplate(checked: "{n}")

    private init(checked text: String) {
        self.text = text
        let parts = text.components(separatedBy: "{n}")
        before = parts.first ?? ""
        after = parts.count > 1 ? parts[1] : ""
    }

    /// The template `text`, or nil when ``problem(_:)`` finds one.
    public init?(_ text: String) {
        guard Self.problem(text) == nil else { return nil }
        self.init(checked: text)
    }

    /// What is wrong with `text` as a template, or nil.
    public static func problem(_ text: String) -> String? {
        let parts = text.components(separatedBy: "{n}")
        guard parts.count == 2 else { return "it must hold {n} (where the segment's number goes) exactly once" }
        if text.hasPrefix(".") { return "it may not begin with a dot (a hidden file)" }
        let rest = parts.joined()
        if let bad = rest.unicodeScalars.first(where: {
            !($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "._-".unicodeScalars.contains($0)))
        }) {
            return "it holds \(LabelText.describe(bad)); a segment name is letters, digits, '.', '_' and '-' around {n}"
        }
        if text.utf8.count > 100 { return "it is longer than 100 bytes" }
        return nil
    }

    /// Segment `number`'s name: the number at least `digits` digits, then `.extension`.
    ///
    /// Written into the name's bytes at once (a title names thousands of segments per rendition,
    /// and each is named again for its playlist, its record and the report; the default's names
    /// fit in a string with no storage of its own).
    public func name(_ number: Int, digits: Int, extension ext: String) -> String {
        guard number >= 0 else { return before + String(number).zeroPadded(to: digits) + after + "." + ext }
        var width = 1
        var rest = number / 10
        while rest > 0 {
            width += 1
            rest /= 10
        }
        width = max(width, digits)
        let (before, after) = (self.before.utf8, self.after.utf8)
        return String(unsafeUninitializedCapacity: before.count + width + after.count + 1 + ext.utf8.count) { out in
            var o = out.initialize(fromContentsOf: before)
            var value = number
            for d in stride(from: o + width - 1, through: o, by: -1) {
                out[d] = UInt8(truncatingIfNeeded: 0x30 + value % 10)
                value /= 10
            }
            o += width
            o = out[o...].initialize(fromContentsOf: after)
            out[o] = 0x2E
            return out[(o + 1)...].initialize(fromContentsOf: ext.utf8)
        }
    }

    public var description: String { text }

    public init(from decoder: Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard Self.problem(text) == nil else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not a segment name template: \(text)"))
        }
        self.init(checked: text)
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }
}

/// How a rendition's files are named and made: its format and its segment names.
public struct SegmentNaming: Sendable, Hashable {
    public var format: SubtitleTextFormat
    public var template: SegmentNameTemplate

    public init(format: SubtitleTextFormat = .webVTT, template: SegmentNameTemplate = .standard) {
        self.format = format
        self.template = template
    }

    /// WebVTT, `00000.vtt`…: what Subweave has always written.
    public static let standard = SegmentNaming()

    /// The segments' extension.
    var fileExtension: String { format == .imsc1 ? "m4s" : "vtt" }
}
