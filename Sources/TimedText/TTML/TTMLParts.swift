import Foundation
import Timebase

/// TTML's time expressions, with the document's frame and tick rates (TTML2 §10.3.1).
struct TTMLTiming {
    /// Effective frames per second (`ttp:frameRate` × `ttp:frameRateMultiplier`).
    var frameRate: Double = 30
    var subFrameRate: Double = 1
    var tickRate: Double = 1

    init() {}

    /// The rates the root element declares.
    init(_ attributes: [String: String], line: Int) throws(SubtitleFileError) {
        if let text = attributes["frameRate"] {
            guard let rate = Double(text), rate > 0, rate < 1000 else {
                throw SubtitleFileError(.ttml, line: line, "ttp:frameRate \"\(text)\" is not a positive integer")
            }
            frameRate = rate
        }
        if let text = attributes["frameRateMultiplier"] {
            let parts = text.split(separator: " ").compactMap { Double($0) }
            guard parts.count == 2, parts[0] > 0, parts[1] > 0 else {
                throw SubtitleFileError(.ttml, line: line, "ttp:frameRateMultiplier \"\(text)\" is not two positive integers (numerator denominator)")
            }
            frameRate *= parts[0] / parts[1]
        }
        if let text = attributes["subFrameRate"], let rate = Double(text), rate > 0 { subFrameRate = rate }
        if let text = attributes["tickRate"] {
            guard let rate = Double(text), rate > 0 else { throw SubtitleFileError(.ttml, line: line, "ttp:tickRate \"\(text)\" is not a positive integer") }
            tickRate = rate
        } else if attributes["frameRate"] != nil {
            tickRate = frameRate * subFrameRate
        }
    }

    /// A clock time (`hh:mm:ss`, `.fraction` or `:frames[.subframes]`) or an offset time
    /// (`12.5s`, `500ms`, `90f`, `1000t`, `2m`, `1h`).
    func time(_ raw: String, line: Int) throws(SubtitleFileError) -> MediaTime {
        let text = raw.trimmingCharacters(in: .whitespaces)
        func fail() -> SubtitleFileError {
            SubtitleFileError(
                .ttml, line: line,
                "\"\(LabelText.excerpt(text))\" is not a TTML time expression (clock time hh:mm:ss[.f] or hh:mm:ss:ff, or offset time such as 12.5s, 500ms, 90f, 1000t)"
            )
        }
        var seconds: Double
        if text.contains(":") {
            let parts = text.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 3 || parts.count == 4, parts[0].count >= 2, parts[1].count == 2,
                let h = Double(parts[0]), let m = Double(parts[1]), m < 60, parts[0].allSatisfy(\.isASCIIDigit), parts[1].allSatisfy(\.isASCIIDigit)
            else { throw fail() }
            let secondsPart = parts[2]
            guard secondsPart.prefix(2).allSatisfy(\.isASCIIDigit), secondsPart.count >= 2, let s = Double(secondsPart), s < 60 else { throw fail() }
            seconds = h * 3600 + m * 60 + s
            if parts.count == 4 {
                let frameParts = parts[3].split(separator: ".", omittingEmptySubsequences: false)
                guard let frames = Double(frameParts[0]), frameParts[0].allSatisfy(\.isASCIIDigit) else { throw fail() }
                var f = frames
                if frameParts.count == 2 {
                    guard let sub = Double(frameParts[1]) else { throw fail() }
                    f += sub / subFrameRate
                }
                seconds += f / frameRate
            }
        } else {
            let metrics: [(String, Double)] = [("ms", 0.001), ("h", 3600), ("m", 60), ("s", 1), ("f", 1 / frameRate), ("t", 1 / tickRate)]
            guard let (suffix, scale) = metrics.first(where: { text.hasSuffix($0.0) }) else { throw fail() }
            let number = text.dropLast(suffix.count)
            guard !number.isEmpty, number.allSatisfy({ $0.isASCIIDigit || $0 == "." }), let value = Double(number) else { throw fail() }
            seconds = value * scale
        }
        guard seconds.isFinite, seconds >= 0, seconds < 1e9 else { throw fail() }
        return MediaTime(ticks: Int64((seconds * Double(MediaTime.ticksPerSecond)).rounded()))
    }
}

/// A paragraph's visible text as WebVTT cue text.
enum TTMLText {
    /// The cue text of `fragments` (those shown at one instant, in document order).
    static func compose(_ fragments: [TTMLPresenter.Fragment]) -> String {
        compose(pieces: withRuby(fragments))
    }

    /// A piece of cue text: a fragment, or markup made already (a ruby annotation).
    enum Piece {
        case fragment(TTMLPresenter.Fragment)
        case markup(String)
    }

    /// The fragments with each ruby annotation made into `<ruby>base<rt>text</rt></ruby>` (its
    /// first annotation text; whitespace between its parts is layout, not text).
    static func withRuby(_ fragments: [TTMLPresenter.Fragment]) -> [Piece] {
        var pieces: [Piece] = []
        var i = 0
        while i < fragments.count {
            guard let ruby = fragments[i].ruby else {
                pieces.append(.fragment(fragments[i]))
                i += 1
                continue
            }
            let container: Int
            switch ruby {
            case .base(let c), .text(let c, _): container = c
            }
            var base: [TTMLPresenter.Fragment] = []
            var text: [TTMLPresenter.Fragment] = []
            while i < fragments.count, let r = fragments[i].ruby {
                switch r {
                case .base(let c) where c == container: base.append(fragments[i])
                case .text(let c, 0) where c == container: text.append(fragments[i])
                case .text(let c, _) where c == container: break
                default: break
                }
                if case .base(let c) = r, c != container { break }
                if case .text(let c, _) = r, c != container { break }
                i += 1
            }
            let baseText = compose(pieces: base.map(Piece.fragment)).replacingOccurrences(of: "\n", with: " ")
            let annotation = compose(pieces: text.map(Piece.fragment)).replacingOccurrences(of: "\n", with: " ")
            if baseText.isEmpty { continue }
            pieces.append(.markup(annotation.isEmpty ? baseText : "<ruby>\(baseText)<rt>\(annotation)</rt></ruby>"))
        }
        return pieces
    }

    /// The pieces as cue text: lines joined with line feeds, spaces collapsed where the text is
    /// not preserved, blank lines at either end dropped.
    static func compose(pieces: [Piece]) -> String {
        var composer = LineComposer()
        for item in pieces {
            switch item {
            case .markup(let markup): composer.add(markup: markup)
            case .fragment(let fragment): composer.add(fragment)
            }
        }
        return composer.text
    }

    /// The lines of a cue as its pieces are added, with the white-space state between them.
    struct LineComposer {
        var lines: [String] = []
        var current = ""
        var pendingSpace = false
        var lineHasText = false

        mutating func endLine() {
            lines.append(current)
            current = ""
            pendingSpace = false
            lineHasText = false
        }

        /// Markup made already (ruby): placed as it is, after a pending space.
        mutating func add(markup: String) {
            if pendingSpace {
                current += " "
                pendingSpace = false
            }
            current += markup
            lineHasText = true
        }

        mutating func add(_ fragment: TTMLPresenter.Fragment) {
            if fragment.lineBreak {
                endLine()
                return
            }
            var piece = ""
            for scalar in fragment.text.unicodeScalars {
                if fragment.preserve {
                    if pendingSpace {
                        // The collapsed space of the text before, then this text as written.
                        current += " "
                        pendingSpace = false
                    }
                    if scalar == "\n" {
                        current += TTMLText.wrap(piece, fragment.style)
                        piece = ""
                        endLine()
                        continue
                    }
                    piece.unicodeScalars.append(scalar)
                    lineHasText = true
                    continue
                }
                if scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r" {
                    // Collapsed: one space, none after a space kept as written (XSL-FO
                    // white-space-collapse, as TTML2 §7.2.3 applies it).
                    let last = piece.unicodeScalars.last ?? current.unicodeScalars.last
                    if lineHasText, last != " ", last != "\t" { pendingSpace = true }
                    continue
                }
                if pendingSpace {
                    // A space between fragments belongs to neither's style.
                    if piece.isEmpty { current += " " } else { piece += " " }
                    pendingSpace = false
                }
                piece.unicodeScalars.append(scalar)
                lineHasText = true
            }
            current += TTMLText.wrap(piece, fragment.style)
        }

        /// The lines, blank ones at either end dropped.
        var text: String {
            var composer = self
            composer.endLine()
            var lines = composer.lines
            while lines.last?.isEmpty == true { lines.removeLast() }
            while lines.first?.isEmpty == true { lines.removeFirst() }
            return lines.joined(separator: "\n")
        }
    }

    /// `text` escaped and wrapped in the tags its style asks for.
    static func wrap(_ text: String, _ style: TTMLStyle) -> String {
        guard !text.isEmpty else { return "" }
        var out = CueText.escaped(text)
        if style.underline == true { out = "<u>\(out)</u>" }
        if style.bold == true { out = "<b>\(out)</b>" }
        if style.italic == true { out = "<i>\(out)</i>" }
        if let colour = style.colour, !colour.isEmpty { out = "<c.\(colour)>\(out)</c>" }
        return out
    }
}

/// A TTML region as WebVTT cue settings, where WebVTT can say it.
enum TTMLRegion {
    static func settings(_ region: [String: String], rootExtent: (Double, Double)?) -> CueSettings {
        var settings = CueSettings()
        guard let origin = region["origin"].flatMap({ pair($0, rootExtent) }), let extent = region["extent"].flatMap({ pair($0, rootExtent) }) else {
            return settings
        }
        switch region["displayAlign"] {
        case "after":
            settings.line = .percentage(format(origin.1 + extent.1))
            settings.lineAlign = .end
        case "center":
            settings.line = .percentage(format(origin.1 + extent.1 / 2))
            settings.lineAlign = .center
        default:
            settings.line = .percentage(format(origin.1))
            settings.lineAlign = .start
        }
        switch region["textAlign"] {
        case "left", "start":
            settings.position = format(origin.0)
            settings.positionAlign = .lineLeft
            settings.align = .start
        case "right", "end":
            settings.position = format(origin.0 + extent.0)
            settings.positionAlign = .lineRight
            settings.align = .end
        default:
            settings.position = format(origin.0 + extent.0 / 2)
            settings.positionAlign = .center
        }
        settings.size = format(extent.0)
        return settings
    }

    /// `"10% 80%"`, or pixels of the root extent, as percentages within 0-100.
    static func pair(_ text: String, _ rootExtent: (Double, Double)?) -> (Double, Double)? {
        let parts = text.split(separator: " ").filter { !$0.isEmpty }
        guard parts.count == 2 else { return nil }
        func value(_ part: Substring, _ axis: Double?) -> Double? {
            if part.hasSuffix("%") { return Double(part.dropLast()) }
            if part.hasSuffix("px"), let axis, let px = Double(part.dropLast(2)) { return px / axis * 100 }
            return nil
        }
        guard let x = value(parts[0], rootExtent?.0), let y = value(parts[1], rootExtent?.1), x.isFinite, y.isFinite else { return nil }
        return (min(100, max(0, x)), min(100, max(0, y)))
    }

    static func format(_ value: Double) -> String {
        let clamped = min(100, max(0, value))
        let rounded = (clamped * 1000).rounded() / 1000
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }
}
