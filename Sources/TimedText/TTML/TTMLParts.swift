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

/// A paragraph's visible text as lines of runs (``CueContent``).
enum TTMLText {
    /// The lines of `fragments` (those shown at one instant, in document order).
    static func compose(_ fragments: [TTMLPresenter.Fragment]) -> [[CueRun]] {
        compose(pieces: withRuby(fragments))
    }

    /// A piece of a line: a fragment, or a run made already (a ruby annotation).
    enum Piece {
        case fragment(TTMLPresenter.Fragment)
        case run(CueRun)
    }

    /// The fragments with each ruby annotation made into one run over its base (its first
    /// annotation text; whitespace between its parts is layout, not text).
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
            let baseRuns = oneLine(compose(pieces: base.map(Piece.fragment)))
            let annotation = oneLine(compose(pieces: text.map(Piece.fragment)))
            if baseRuns.isEmpty { continue }
            if annotation.isEmpty {
                pieces.append(contentsOf: baseRuns.map(Piece.run))
            } else {
                let after = text.first?.style.rubyAfter == true
                pieces.append(.run(.ruby(base: baseRuns, annotation: annotation, position: after ? .after : .before)))
            }
        }
        return pieces
    }

    /// `lines` as one line, a space where each break was.
    static func oneLine(_ lines: [[CueRun]]) -> [CueRun] {
        var runs: [CueRun] = []
        for (index, line) in lines.enumerated() {
            if index > 0 { runs.append(.text(" ", CueStyle())) }
            runs += line
        }
        return runs
    }

    /// The pieces as lines: spaces collapsed where the text is not preserved, blank lines at
    /// either end dropped.
    static func compose(pieces: [Piece]) -> [[CueRun]] {
        var composer = LineComposer()
        for item in pieces {
            switch item {
            case .run(let run): composer.add(run: run)
            case .fragment(let fragment): composer.add(fragment)
            }
        }
        return composer.lines
    }

    /// The lines of a cue as its pieces are added, with the white-space state between them.
    struct LineComposer {
        private var done: [[CueRun]] = []
        private var current: [CueRun] = []
        /// The last character of the current line as WebVTT writes it (`>` after markup): the
        /// collapsing rule looks at it.
        private var currentLast: Unicode.Scalar?
        private var pendingSpace = false
        private var lineHasText = false

        private mutating func endLine() {
            done.append(current)
            current = []
            currentLast = nil
            pendingSpace = false
            lineHasText = false
        }

        private mutating func append(_ run: CueRun) {
            guard let last = CueContent.lastWritten(run) else { return }
            current.append(run)
            currentLast = last
        }

        /// A run made already (ruby): placed as it is, after a pending space.
        mutating func add(run: CueRun) {
            if pendingSpace {
                append(.text(" ", CueStyle()))
                pendingSpace = false
            }
            append(run)
            lineHasText = true
        }

        mutating func add(_ fragment: TTMLPresenter.Fragment) {
            if fragment.lineBreak {
                endLine()
                return
            }
            let style = fragment.style.cueStyle
            var piece = ""
            for scalar in fragment.text.unicodeScalars {
                if fragment.preserve {
                    if pendingSpace {
                        // The collapsed space of the text before, then this text as written.
                        append(.text(" ", CueStyle()))
                        pendingSpace = false
                    }
                    if scalar == "\n" {
                        append(.text(piece, style))
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
                    let last = piece.unicodeScalars.last ?? currentLast
                    if lineHasText, last != " ", last != "\t" { pendingSpace = true }
                    continue
                }
                if pendingSpace {
                    // A space between fragments belongs to neither's style.
                    if piece.isEmpty { append(.text(" ", CueStyle())) } else { piece += " " }
                    pendingSpace = false
                }
                piece.unicodeScalars.append(scalar)
                lineHasText = true
            }
            append(.text(piece, style))
        }

        /// The lines, blank ones at either end dropped.
        var lines: [[CueRun]] {
            var composer = self
            composer.endLine()
            var lines = composer.done
            while lines.last?.isEmpty == true { lines.removeLast() }
            while lines.first?.isEmpty == true { lines.removeFirst() }
            return lines
        }
    }
}

/// A TTML region as the box of its cues' content.
enum TTMLRegion {
    /// The box of `region` (`tts:origin`, `tts:extent`, `tts:displayAlign`, `tts:textAlign`,
    /// `tts:writingMode`), or nil when it has no origin and extent Subweave can read.
    static func box(_ region: [String: String], rootExtent: (Double, Double)?) -> CueBox? {
        guard let origin = region["origin"].flatMap({ pair($0, rootExtent) }), let extent = region["extent"].flatMap({ pair($0, rootExtent) }) else {
            return nil
        }
        var box = CueBox(left: origin.0, top: origin.1, width: extent.0, height: extent.1)
        switch region["displayAlign"] {
        case "after": box.displayAlign = .after
        case "center": box.displayAlign = .center
        default: box.displayAlign = .before
        }
        box.textAlign = region["textAlign"].flatMap { CueBox.TextAlign(rawValue: String($0.trimming(.asciiWhitespace))) }
        switch region["writingMode"]?.trimming(.asciiWhitespace) {
        case "tbrl"?, "tb"?: box.writingMode = .tbrl
        case "tblr"?: box.writingMode = .tblr
        case "rltb"?, "rl"?: box.writingMode = .rltb
        default: box.writingMode = .lrtb
        }
        return box
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
}
