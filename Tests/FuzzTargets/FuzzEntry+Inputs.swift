import Foundation
import Subweave
import Timebase
import TimedText

/// The fuzz targets for what the operator and the catalogue hand Subweave: text in any
/// encoding, language tags, track descriptors and catalogue lines.
extension FuzzEntry {
    /// Text decoding: guessed and forced (the first byte picks an encoding to force); the
    /// confidence is a share, and text that is valid UTF-8 decodes to itself.
    public static func text(_ bytes: [UInt8]) -> [String] {
        var violations: [String] = []
        let guessed = TextDecoder.decode(bytes)
        if let confidence = guessed.confidence, !(0...1).contains(confidence) { violations.append("confidence \(confidence) is not a share") }
        let again = Array(guessed.text.utf8)
        if TextDecoder.decode(again, forced: .utf8).text != guessed.text { violations.append("the decoded text does not read back as UTF-8") }
        if let first = bytes.first {
            let all = TextEncoding.allCases
            _ = TextDecoder.decode(Array(bytes.dropFirst()), forced: all[Int(first) % all.count])
        }
        return violations
    }

    /// A language tag as the operator writes it: one that parses writes a form that parses to
    /// the same tag.
    public static func language(_ bytes: [UInt8]) -> [String] {
        let text = String(decoding: bytes.prefix(256), as: UTF8.self)
        guard let tag = LanguageTag(parsing: text) else { return [] }
        guard let back = LanguageTag(parsing: tag.description) else { return ["\(text.debugDescription) → \(tag) does not parse back"] }
        return back == tag ? [] : ["\(text.debugDescription) → \(tag) → \(back)"]
    }

    /// A `--subtitle` descriptor and a `--tracks` file: each is refused with a message or
    /// registered; nothing traps.
    public static func descriptor(_ bytes: [UInt8]) -> [String] {
        let text = String(decoding: bytes.prefix(4096), as: UTF8.self)
        if let descriptor = try? TrackDescriptor(parsing: text, origin: "fuzz") { _ = try? SubtitleTrack.register([descriptor]) }
        if let descriptors = try? TrackDescriptor.parseTracksFile(Data(bytes), file: "fuzz.json") { _ = try? SubtitleTrack.register(descriptors) }
        return []
    }

    /// Catalogue lines (JSON Lines), with and without a root: a result per title line, each a
    /// title or an error naming its line.
    public static func catalogue(_ bytes: [UInt8]) -> [String] {
        let text = String(decoding: bytes, as: UTF8.self)
        var violations: [String] = []
        for root in [nil, URL(fileURLWithPath: "/tmp")] {
            let titles = Catalogue.titles(text, path: "/tmp/fuzz/catalogue.jsonl", root: root)
            for case .failure(let error) in titles where error.line < 1 { violations.append("an error without its line: \(error)") }
        }
        return violations
    }
}
