import Foundation
import TestSupport
import Testing

/// `subweave report --html` in Chromium: the page renders without script or network, its lanes
/// and marks sit where the data says, the track out of sync is the one marked, and a screenshot
/// is made.
extension BrowserPlaybackTests {
    /// The harness: loads the report in a frame (the report itself runs no script), measures
    /// every drawn element against the time axis the SVG declares, and posts what it found.
    static let reportHarness = """
        <!doctype html>
        <html><body>
        <iframe id="r" src="report.html" width="1400" height="600"></iframe>
        <script>
        document.getElementById('r').onload = () => {
          const doc = document.getElementById('r').contentDocument;
          const svg = doc.querySelector('svg');
          const box = svg.getBoundingClientRect();
          const left = +svg.dataset.left, width = +svg.dataset.width, duration = +svg.dataset.duration;
          const at = t => left + Math.min(Math.max(t, 0), duration) / duration * width;
          const worst = (els, key) => Math.max(0, ...Array.from(els).map(e => Math.abs(e.getBoundingClientRect()[key] - box.left - at(+e.dataset[key === 'left' ? 'start' : 'end']))));
          const lanes = Array.from(doc.querySelectorAll('g.lane.rendition')).map(g => {
            const cues = g.querySelectorAll('rect.cue');
            const label = g.querySelector('text.label');
            return { identity: g.dataset.identity, verdict: g.dataset.verdict, alert: label.classList.contains('alert'),
                     label: label.textContent, cues: cues.length,
                     cueStartError: worst(cues, 'left'), cueEndError: worst(cues, 'right'),
                     marks: Array.from(g.querySelectorAll('rect.mark')).map(m => ({ kind: m.dataset.kind,
                       error: Math.abs(m.getBoundingClientRect().left - box.left - at(+m.dataset.start)),
                       visible: m.getBoundingClientRect().width > 0 })),
                     fill: getComputedStyle(label).fill };
          });
          const speech = doc.querySelectorAll('g.speech rect.speech').length;
          fetch('/result', { method: 'POST', body: JSON.stringify({ lanes, speech, svgWidth: box.width, scripts: doc.scripts.length }) });
        };
        </script>
        </body></html>
        """

    struct ReportResult: Decodable {
        struct Lane: Decodable {
            struct Mark: Decodable { let kind: String; let error: Double; let visible: Bool }
            let identity: String
            let verdict: String
            let alert: Bool
            let label: String
            let cues: Int
            let cueStartError: Double
            let cueEndError: Double
            let marks: [Mark]
            let fill: String
        }
        let lanes: [Lane]
        let speech: Int
        let svgWidth: Double
        let scripts: Int
    }

    @Test(.enabled(if: SpokenText.espeak != nil && BuiltTool.subweave != nil, "espeak-ng or the subweave binary is missing"))
    func theReportShowsTheTrackThatDrifts() throws {
        let programme = try SpokenProgramme.make(Array(SpokenProgramme.sampleScript.prefix(24)))
        let site = (programme.master as NSString).deletingLastPathComponent
        let truth = programme.sentences.map { (start: $0.start, end: $0.end, text: $0.text) }
        let good = try SpokenProgramme.subRip(truth, name: "good")
        let late = try SpokenProgramme.subRip(truth.map { ($0.start + 2.5, $0.end + 2.5, $0.text) }, name: "late")
        let drift = 25 / (24000.0 / 1001)
        let drifting = try SpokenProgramme.subRip(truth.map { ($0.start * drift, $0.end * drift, $0.text) }, name: "drifting")
        let packaged = try BuiltTool.run([
            "package", programme.master, "--subtitle", "url=\(good),language=en", "--subtitle", "url=\(late),language=fr",
            "--subtitle", "url=\(drifting),language=de",
        ])
        #expect(packaged.status == 0, "\(packaged.stderr)")
        let written = try BuiltTool.run(["report", programme.master, "--speech", "--html", site + "/report.html"])
        #expect(written.status == 0, "\(written.stderr)")
        let html = try String(contentsOfFile: site + "/report.html", encoding: .utf8)
        #expect(!html.contains("<script") && !html.contains("src=") && !html.contains("href="), "the page loads nothing and runs nothing")

        try Self.reportHarness.write(toFile: site + "/check.html", atomically: true, encoding: .utf8)
        let result = try JSONDecoder().decode(ReportResult.self, from: try Self.open("check.html", in: site).data)
        #expect(result.scripts == 0 && result.speech > 10, "scripts \(result.scripts), speech rectangles \(result.speech)")
        let lanes = Dictionary(uniqueKeysWithValues: result.lanes.map { ($0.identity, $0) })
        let en = try #require(lanes["external:good:en"], "\(lanes.keys)")
        let fr = try #require(lanes["external:late:fr"]), de = try #require(lanes["external:drifting:de"])
        #expect(en.verdict == "in_sync" && !en.alert && en.marks.allSatisfy { $0.kind == "empty-segment" }, "\(en)")
        #expect(fr.verdict == "offset" && fr.alert && fr.label.contains("+2.50 s") && fr.marks.contains { $0.kind == "out-of-sync" }, "\(fr)")
        #expect(de.verdict == "rate" && de.alert && de.label.contains("rate 25/23.976"), "\(de)")
        for lane in [en, fr, de] {
            #expect(lane.cues == truth.count, "\(lane.identity): \(lane.cues) cue rectangles")
            // Every rectangle within a pixel of where its data puts it, the marks too.
            #expect(lane.cueStartError < 1 && lane.cueEndError < 1, "\(lane.identity): \(lane.cueStartError), \(lane.cueEndError)")
            #expect(lane.marks.allSatisfy { $0.error < 1 && $0.visible }, "\(lane.identity): \(lane.marks)")
        }
        #expect(fr.fill.contains("204, 0, 0") && !en.fill.contains("204, 0, 0"), "alert labels are red: \(fr.fill), \(en.fill)")

        // A screenshot, as a person would see the page.
        let shot = site + "/report.png"
        let profile = try Scratch.make().path
        let outcome = try Tools.run(
            try #require(Self.chromium),
            [
                "--headless=new", "--no-sandbox", "--disable-gpu", "--user-data-dir=\(profile)", "--window-size=1300,500", "--screenshot=\(shot)",
                "file://" + site + "/report.html",
            ], timeout: 120)
        #expect(outcome.status == 0, "\(outcome.stderr.suffix(500))")
        let png = try #require(FileManager.default.contents(atPath: shot))
        #expect(png.count > 10_000 && png.prefix(4) == Data([0x89, 0x50, 0x4E, 0x47]), "\(png.count) bytes")
    }
}
