import Foundation
import Subweave
import Timebase
import TimedText

/// One self-contained HTML page of a ``ProgrammeOverview``.
///
/// Inline SVG and CSS, no script, no network. The programme's timeline runs left to right over ``width`` pixels; below the time
/// axis, a lane of segments, a lane of speech (when the sound was listened to), then a lane per
/// rendition with its cues and its findings marked where they occur: past the end, long gaps,
/// segments without a cue, out of sync (the whole lane, with the measured offset and rate in its
/// label). Lanes with a finding are labelled in red, so the one that drifts stands out.
///
/// Every drawn element carries its data (`data-start`, `data-end` in seconds, `data-kind`), so
/// a reader of the page — or a test — can check it is where the data says.
enum OverviewPage {
    /// The timeline's width in pixels; the labels take ``labelWidth`` to its left.
    static let width = 1000.0
    static let labelWidth = 260.0
    static let laneHeight = 26.0
    static let axisHeight = 30.0

    /// The page.
    static func html(_ overview: ProgrammeOverview) -> String {
        let scale = Scale(duration: max(overview.duration.seconds, 0.001))
        var rows = [axis(scale), segmentLane(overview.segments, y: axisHeight, scale: scale)]
        var y = axisHeight + laneHeight
        if let speech = overview.speech {
            rows.append(spanLane(speech, kind: "speech", title: "speech", rectClass: "speech", y: y, scale: scale))
            y += laneHeight
        }
        for lane in overview.lanes {
            rows.append(renditionLane(lane, y: y, scale: scale))
            y += laneHeight
        }
        return page(overview, svg: rows.joined(separator: "\n"), height: y + 10)
    }

    /// Programme seconds to the page's pixels.
    struct Scale {
        let duration: Double
        func x(_ t: MediaTime) -> Double { labelWidth + min(max(t.seconds, 0), duration) / duration * width }
        /// Ranges closer than a pixel are drawn as one.
        var pixel: MediaTime { MediaTime(ticks: Int64(duration / width * 90_000)) }
    }

    static func f(_ v: Double) -> String { String(format: "%.2f", v) }

    /// The time axis: at most twelve ticks at a round step, however long the programme claims
    /// to be.
    static func axis(_ scale: Scale) -> String {
        let step = tickStep(scale.duration)
        var axis = "<g class=\"axis\">"
        for index in 0...12 {
            let tick = Double(index) * step
            guard tick <= scale.duration + 0.0001 else { break }
            let px = labelWidth + tick / scale.duration * width
            axis += "<line x1=\"\(f(px))\" y1=\"\(f(axisHeight - 8))\" x2=\"\(f(px))\" y2=\"\(f(axisHeight))\" class=\"tick\"/>"
            axis += "<text x=\"\(f(px))\" y=\"\(f(axisHeight - 12))\" class=\"time\">\(clock(tick))</text>"
        }
        return axis + "</g>"
    }

    /// The round step (seconds) that puts at most twelve ticks on `duration`: a clock step up
    /// to an hour, then 1, 2 or 5 times a power of ten hours.
    static func tickStep(_ duration: Double) -> Double {
        guard duration.isFinite, duration > 0 else { return 3600 }
        if let step = [1.0, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600].first(where: { duration / $0 <= 12 }) { return step }
        var hours = 1.0
        while true {
            for factor in [1.0, 2, 5] where duration / (hours * factor * 3600) <= 12 { return hours * factor * 3600 }
            hours *= 10
        }
    }

    /// A rectangle over `range`, inset `inset` pixels from the lane's edges, carrying its times.
    static func span(_ range: Range<MediaTime>, rectClass: String, y: Double, inset: Double, scale: Scale) -> String {
        let from = scale.x(range.lowerBound), to = scale.x(range.upperBound)
        return
            "<rect class=\"\(rectClass)\" x=\"\(f(from))\" y=\"\(f(y + inset))\" width=\"\(f(max(0.5, to - from)))\" height=\"\(f(laneHeight - 2 * inset))\" data-start=\"\(range.lowerBound.decimalSeconds)\" data-end=\"\(range.upperBound.decimalSeconds)\"/>"
    }

    static func segmentLane(_ segments: [Range<MediaTime>], y: Double, scale: Scale) -> String {
        var lane =
            "<g class=\"lane segments\" data-kind=\"segments\" data-count=\"\(segments.count)\">" + label("segments (\(segments.count))", y: y, alert: false)
        for (i, s) in segments.enumerated() { lane += span(s, rectClass: "segment s\(i % 2)", y: y, inset: 4, scale: scale) }
        return lane + "</g>"
    }

    static func spanLane(_ ranges: [Range<MediaTime>], kind: String, title: String, rectClass: String, y: Double, scale: Scale) -> String {
        var lane = "<g class=\"lane \(kind)\" data-kind=\"\(kind)\">" + label(title, y: y, alert: false)
        for r in merged(ranges, minimumGap: scale.pixel) { lane += span(r, rectClass: rectClass, y: y, inset: 6, scale: scale) }
        return lane + "</g>"
    }

    /// A rendition: its band, its label (red when something is wrong, with the measured offset
    /// and rate), empty segments under its cues, its cues, then its other marks on top.
    static func renditionLane(_ lane: ProgrammeOverview.Lane, y: Double, scale: Scale) -> String {
        let alert = lane.findings.contains { $0.kind != .emptySegment }
        var g =
            "<g class=\"lane rendition\" data-kind=\"\(lane.kind)\" data-identity=\"\(escape(lane.identity))\" data-cues=\"\(lane.cues.count)\" data-verdict=\"\(lane.sync?.verdict.rawValue ?? "")\">"
        g += "<rect class=\"band\" x=\"\(f(labelWidth))\" y=\"\(f(y + 2))\" width=\"\(f(width))\" height=\"\(f(laneHeight - 4))\"/>"
        var text = "\(lane.name.isEmpty ? lane.identity : lane.name)\(lane.language.map { " · \($0)" } ?? "")"
        if let sync = lane.sync, sync.verdict != .inSync {
            if let offset = sync.offset, abs(offset) >= 0.005 { text += String(format: " · %+.2f s", offset) }
            if let rate = sync.rate, !rate.isOne { text += " · rate \(rate)" }
            if sync.verdict == .ambiguous { text += " · ambiguous" } else if sync.verdict == .partial { text += " · partial" }
            if sync.verdict == .noMatch { text += " · no match" }
        }
        g += label(text, y: y, alert: alert)
        for finding in lane.findings where finding.kind == .emptySegment { g += mark(finding, x: scale.x, y: y) }
        for cue in merged(lane.cues, minimumGap: scale.pixel) { g += span(cue, rectClass: "cue", y: y, inset: 6, scale: scale) }
        for finding in lane.findings where finding.kind != .emptySegment { g += mark(finding, x: scale.x, y: y) }
        if let note = lane.note { g += "<text x=\"\(f(labelWidth + 6))\" y=\"\(f(y + laneHeight / 2 + 4))\" class=\"note\">\(escape(note))</text>" }
        return g + "</g>"
    }

    /// The page around the drawing: its style, the programme's line, and the findings listed.
    static func page(_ overview: ProgrammeOverview, svg: String, height: Double) -> String {
        let findings = overview.lanes.flatMap { lane in
            lane.findings.filter { $0.kind != .emptySegment }.map {
                "<li class=\"finding\" data-kind=\"\($0.kind.rawValue)\"><b>\(escape(lane.identity))</b>: \(escape($0.text))</li>"
            }
        }
        let empty = overview.lanes.map { ($0.identity, $0.findings.filter { $0.kind == .emptySegment }.count) }.filter { $0.1 > 0 }
        let emptyItems = empty.map { "<li class=\"quiet\"><b>\(escape($0.0))</b>: \($0.1.counted("segment")) without a cue</li>" }
        return """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><title>Subweave: \(escape(overview.master))</title>
            <style>
            body { font: 14px/1.4 system-ui, sans-serif; margin: 20px; color: #222; }
            h1 { font-size: 18px; margin: 0 0 4px; } p.meta { color: #666; margin: 0 0 12px; }
            svg text { font: 12px system-ui, sans-serif; } .time { text-anchor: middle; fill: #555; } .tick { stroke: #999; }
            .label { fill: #222; } .label.alert { fill: #c00; font-weight: bold; } .note { fill: #888; font-style: italic; }
            .segment.s0 { fill: #d9dde3; } .segment.s1 { fill: #c3c9d1; } .speech { fill: #4caf50; } .band { fill: #f4f6f8; }
            .cue { fill: #2f6fd6; } .mark.empty-segment { fill: #f6d5d5; } .mark.past-end, .mark.long-gap { fill: #e69500; opacity: .55; }
            .mark.out-of-sync, .mark.no-match { fill: none; stroke: #c00; stroke-width: 2; }
            li.finding { color: #900; } li.quiet { color: #777; }
            </style></head><body>
            <h1>\(escape(overview.master))</h1>
            <p class="meta">\(overview.duration.decimalSeconds) s, \(overview.segments.count.counted("segment")), \(overview.lanes.count.counted("rendition"))\(overview.speech == nil ? "; sound not listened to" : "; speech from the sound")</p>
            <svg xmlns="http://www.w3.org/2000/svg" width="\(f(labelWidth + width + 30))" height="\(f(height))" data-duration="\(overview.duration.decimalSeconds)" data-left="\(f(labelWidth))" data-width="\(f(width))">
            \(svg)
            </svg>
            <ul>\((findings + emptyItems).joined(separator: "\n"))</ul>
            </body></html>

            """
    }

    static func label(_ text: String, y: Double, alert: Bool) -> String {
        "<text x=\"4\" y=\"\(String(format: "%.2f", y + laneHeight / 2 + 4))\" class=\"label\(alert ? " alert" : "")\">\(escape(text))</text>"
    }

    static func mark(_ finding: ProgrammeOverview.Finding, x: (MediaTime) -> Double, y: Double) -> String {
        let from = x(finding.start), to = max(x(finding.end), from + 3)
        let inset = finding.kind == .outOfSync || finding.kind == .noMatch ? 1.0 : 2.0
        return
            "<rect class=\"mark \(finding.kind.rawValue)\" data-kind=\"\(finding.kind.rawValue)\" x=\"\(String(format: "%.2f", from))\" y=\"\(String(format: "%.2f", y + inset))\" width=\"\(String(format: "%.2f", to - from))\" height=\"\(String(format: "%.2f", laneHeight - 2 * inset))\" data-start=\"\(finding.start.decimalSeconds)\" data-end=\"\(finding.end.decimalSeconds)\"><title>\(escape(finding.text))</title></rect>"
    }

    /// Ranges closer than `minimumGap` joined: a pixel holds one rectangle, however many cues.
    static func merged(_ ranges: [Range<MediaTime>], minimumGap: MediaTime) -> [Range<MediaTime>] {
        var out: [Range<MediaTime>] = []
        for r in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = out.last, r.lowerBound <= last.upperBound + minimumGap {
                out[out.count - 1] = last.lowerBound..<max(last.upperBound, r.upperBound)
            } else {
                out.append(r)
            }
        }
        return out
    }

    static func clock(_ seconds: Double) -> String {
        let s = Int(seconds.rounded())
        return s >= 3600 ? String(format: "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60) : String(format: "%d:%02d", s / 60, s % 60)
    }

    /// Text for HTML, in an element or a quoted attribute: control, bidirectional and invisible
    /// characters (a hostile NAME's ESC or BEL) shown as `\u{1B}` (``LabelText/visible(_:)``).
    static func escape(_ text: String) -> String {
        CueText.escaped(LabelText.visible(text)).replacingOccurrences(of: "\"", with: "&quot;")
    }
}
