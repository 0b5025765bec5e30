import Foundation
import HLS
import Testing
import TestSupport

/// A real player end to end: `subweave package` writes the renditions, Python's static server
/// serves the folder on 127.0.0.1, hls.js 1.6 in headless Chromium loads it, and the cues it puts
/// on `video.textTracks` must land on the intended frame.
///
/// Needs chromium (Debian: apt-get install -y chromium), python3 and hls.js, which Scripts/fetch-hlsjs.sh
/// extracts from PyPI's gradio wheel into .build/e2e/hls.mjs (or set SUBWEAVE_HLSJS).
/// What the browser test needs, found once.
enum BrowserEnvironment {
    static let chromium = Tools.which("chromium") ?? Tools.which("chromium-browser") ?? Tools.which("google-chrome")
    static let python = Tools.which("python3")
    static let hlsjs: String? = {
        let candidates: [String?] = [ProcessInfo.processInfo.environment["SUBWEAVE_HLSJS"], Fixtures.repository.appendingPathComponent(".build/e2e/hls.mjs").path]
        return candidates.compactMap { $0 }.first { FileManager.default.fileExists(atPath: $0) }
    }()
    static let missing: [String] = {
        var names: [String] = []
        if chromium == nil { names.append("chromium (apt-get install -y chromium)") }
        if python == nil { names.append("python3") }
        if hlsjs == nil { names.append("hls.js (run Scripts/fetch-hlsjs.sh)") }
        if Tools.ffprobe == nil { names.append("ffprobe (apt-get install -y ffmpeg)") }
        return names
    }()
    static let ready = missing.isEmpty
}

@Suite(.enabled(if: BrowserEnvironment.ready, "chromium, python3, hls.js or ffprobe is missing; see BrowserEnvironment.missing"), .serialized)
struct BrowserPlaybackTests {
    static let chromium = BrowserEnvironment.chromium
    static let python = BrowserEnvironment.python
    static let hlsjs = BrowserEnvironment.hlsjs

    @Test func environmentReport() {
        // Always runs when the suite does; documents what was found.
        #expect(BrowserEnvironment.missing.isEmpty)
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let folder: String
        let frame: Double
        /// (start, end, text) on the programme timeline.
        let cues: [(Double, Double, String)]
        var testDescription: String { folder }
    }

    static let cases: [Case] = [
        Case(folder: "media/ts-bframes", frame: 1001.0 / 30000, cues: [(0, 1, "At zero"), (3.5, 4.5, "Across 4.004"), (7.9, 8.2, "Across 8.008"), (11.5, 12, "Last")]),
        Case(folder: "media/fmp4", frame: 1001.0 / 30000, cues: [(0.5, 1.5, "Early"), (3.9, 4.3, "Across 4.004"), (10, 11, "Late")]),
        Case(folder: "media/discontinuity", frame: 1.0 / 25, cues: [(1, 2.5, "First encode"), (5.5, 6.5, "Across the discontinuity"), (9, 9.5, "Second encode")]),
        Case(folder: "media/pts-wrap", frame: 1.0 / 25, cues: [(1, 3, "Across the wrap"), (2.4, 2.6, "Just after the wrap"), (7, 7.9, "Well after")]),
    ]

    @Test(arguments: cases)
    func hlsjsShowsCuesOnTheIntendedFrame(_ testCase: Case) throws {
        let site = try Fixtures.copy(testCase.folder)
        let srt = testCase.cues.enumerated().map { i, c in "\(i + 1)\n\(Self.srtTime(c.0)) --> \(Self.srtTime(c.1))\n\(c.2)\n" }.joined(separator: "\n")
        try srt.write(toFile: site + "/en.srt", atomically: true, encoding: .utf8)
        let packaged = try BuiltTool.run(["package", site + "/master.m3u8", "--subtitle", "url=\(site)/en.srt,language=en", "--preferred-language", "en"])
        #expect(packaged.status == 0, "\(packaged.stderr)")
        try FileManager.default.copyItem(atPath: Self.hlsjs!, toPath: site + "/hls.mjs")
        try Self.page.write(toFile: site + "/page.html", atomically: true, encoding: .utf8)

        let result = try Self.play(site: site)
        #expect(result.errors.filter { $0.contains("fatal") }.isEmpty, "hls.js errors: \(result.errors)")
        let track = try #require(result.tracks.first { $0.language == "en" }, "hls.js exposed no English subtitle track: \(result)")
        let cues = try #require(track.cues, "no cues: \(result) processed \(result.processed ?? -1) of \(result.expected ?? -1) subtitle segments")
        #expect(cues.map(\.text) == testCase.cues.map(\.2), "the cues hls.js loaded: \(cues)")

        // Where each cue must land: the frame with PTS B_d + (T − S_d)·90000, which hls.js shows at
        // element time (that PTS − initPTS_d) / 90000.
        let playlist = try MediaPlaylist(parsing: Array(try Data(contentsOf: URL(fileURLWithPath: site + "/prog.m3u8"))), source: "prog.m3u8")
        for (cue, intended) in zip(cues, testCase.cues) {
            let segment = playlist.segments.last { $0.start.seconds <= intended.0 + 1e-9 } ?? playlist.segments[0]
            let cc = segment.discontinuitySequence
            let first = playlist.segments.first { $0.discontinuitySequence == cc }!
            let firstPTS: Double
            if let map = first.map {
                firstPTS = try Self.decodeTime90k(init: site + "/" + map.uri, segment: site + "/" + first.uri)
            } else {
                firstPTS = Double(try #require(try Tools.lowestVideoPTS(site + "/" + first.uri)))
            }
            let initPTS = try #require(result.initPTS[String(cc)], "no initPTS for discontinuity \(cc)")
            let expected = (firstPTS + (intended.0 - first.start.seconds) * 90000 - initPTS) / 90000
            #expect(abs(cue.start - expected) <= testCase.frame,
                    "\"\(cue.text)\": hls.js shows it at \(cue.start) s, the intended frame is at \(expected) s")
            #expect(abs((cue.end - cue.start) - (intended.1 - intended.0)) < 0.002)
        }
    }

    struct PlayerResult: Decodable, CustomStringConvertible {
        struct Track: Decodable { let label: String; let language: String; let mode: String; let cues: [Cue]? }
        struct Cue: Decodable { let start: Double; let end: Double; let text: String }
        let tracks: [Track]
        let errors: [String]
        /// hls.js's initPTS per discontinuity (cc), in 90 kHz ticks.
        let initPTS: [String: Double]
        let version: String?
        let processed: Int?
        let expected: Int?
        var description: String { "hls.js \(version ?? "?"): \(tracks.count) tracks, errors \(errors)" }
    }

    /// Serves `site` and runs the page in headless Chromium; returns what the page recorded.
    static func play(site: String) throws -> PlayerResult {
        let port = try freePort()
        let server = Process()
        server.executableURL = URL(fileURLWithPath: python!)
        server.arguments = ["-m", "http.server", String(port), "--bind", "127.0.0.1", "--directory", site]
        server.standardOutput = FileHandle.nullDevice
        server.standardError = FileHandle.nullDevice
        try server.run()
        // SIGKILL: a child of a test process may inherit a mask that blocks SIGTERM.
        defer { kill(server.processIdentifier, SIGKILL); server.waitUntilExit() }
        // Wait until the server accepts connections.
        var ready = false
        for _ in 0..<50 where !ready {
            ready = (try? Data(contentsOf: URL(string: "http://127.0.0.1:\(port)/page.html")!)) != nil
            if !ready { usleep(100_000) }
        }
        #expect(ready, "the static server did not start on port \(port)")
        let profile = try Scratch.make().path
        let chrome = try Tools.run(chromium!, [
            "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run", "--user-data-dir=\(profile)",
            "--autoplay-policy=no-user-gesture-required", "--virtual-time-budget=120000",
            "--dump-dom", "http://127.0.0.1:\(port)/page.html",
        ], timeout: 120)
        let dom = chrome.stdout
        guard let start = dom.range(of: "<pre id=\"result\">"), let end = dom.range(of: "</pre>", range: start.upperBound..<dom.endIndex) else {
            throw MissingTool(name: "the page's result (chromium printed: \(dom.prefix(300)) / \(chrome.stderr.suffix(300)))")
        }
        let json = String(dom[start.upperBound..<end.lowerBound])
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&lt;", with: "<")
            .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&")
        return try JSONDecoder().decode(PlayerResult.self, from: Data(json.utf8))
    }

    /// A TCP port nothing listens on now (the kernel's choice for an ephemeral bind).
    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { throw MissingTool(name: "a free TCP port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    static func decodeTime90k(init initPath: String, segment: String) throws -> Double {
        // hls.js reads the fragment's decode time (tfdt); find it with a byte search.
        let initBytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: initPath)))
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: segment)))
        func find(_ t: String, _ b: [UInt8]) -> Int? {
            let key = Array(t.utf8)
            return (0..<(b.count - 4)).first { Array(b[$0..<($0 + 4)]) == key }
        }
        func u32(_ b: [UInt8], _ o: Int) -> Double { Double(UInt32(b[o]) << 24 | UInt32(b[o + 1]) << 16 | UInt32(b[o + 2]) << 8 | UInt32(b[o + 3])) }
        let mdhd = try #require(find("mdhd", initBytes))
        let timescale = u32(initBytes, mdhd + 4 + (initBytes[mdhd + 4] == 1 ? 20 : 12))
        let tfdt = try #require(find("tfdt", bytes))
        let time = bytes[tfdt + 4] == 1 ? u32(bytes, tfdt + 8) * 4_294_967_296 + u32(bytes, tfdt + 12) : u32(bytes, tfdt + 8)
        return time * 90000 / timescale
    }

    static func srtTime(_ s: Double) -> String {
        let ms = Int((s * 1000).rounded())
        return String(format: "%02d:%02d:%02d,%03d", ms / 3_600_000, ms / 60_000 % 60, ms / 1000 % 60, ms % 1000)
    }

    /// The page: hls.js with a long forward buffer so every subtitle segment loads at position 0;
    /// it records initPTS per discontinuity and, after a while, the text tracks' cues.
    static let page = """
    <!doctype html>
    <html><body>
    <video id="v" muted playsinline></video>
    <pre id="result">pending</pre>
    <script type="module">
    import { t as attach } from './hls.mjs';
    const out = document.getElementById('result');
    const state = { errors: [], initPTS: {}, processed: 0, expected: -1 };
    let done = false;
    function finish() {
      if (done) return;
      done = true;
      const video = document.getElementById('v');
      state.tracks = Array.from(video.textTracks).map(t => {
        const mode = t.mode;
        // A disabled track hides its cue list; hidden shows it without rendering.
        if (t.mode === 'disabled') { t.mode = 'hidden'; }
        return { label: t.label, language: t.language, mode: mode,
                 cues: t.cues ? Array.from(t.cues).map(c => ({ start: c.startTime, end: c.endTime, text: c.text })) : null };
      });
      out.textContent = JSON.stringify(state);
    }
    try {
      // gradio's bundle exports a helper that makes an Hls instance; its constructor is the Hls class.
      const scratch = attach(document.createElement('video'), 'about:blank');
      const Hls = scratch.constructor; scratch.destroy();
      state.version = Hls.version;
      const video = document.getElementById('v');
      const hls = new Hls({ maxBufferLength: 60, maxMaxBufferLength: 60, enableWorker: false });
      hls.on(Hls.Events.INIT_PTS_FOUND, (e, d) => { state.initPTS[d.frag.cc] = d.initPTS * 90000 / d.timescale; });
      hls.on(Hls.Events.ERROR, (e, d) => { state.errors.push(d.details + (d.fatal ? ' (fatal)' : '')); });
      hls.on(Hls.Events.MANIFEST_PARSED, () => { hls.subtitleTrack = 0; hls.subtitleDisplay = true; video.play().catch(() => {}); });
      hls.on(Hls.Events.SUBTITLE_TRACK_LOADED, (e, d) => { state.expected = d.details.fragments.length; });
      hls.on(Hls.Events.SUBTITLE_FRAG_PROCESSED, () => { state.processed += 1; });
      // Done when every subtitle segment has been parsed (and its cues added), whatever the clock says.
      const poll = setInterval(() => {
        if (state.expected > 0 && state.processed >= state.expected) { clearInterval(poll); setTimeout(finish, 500); }
      }, 100);
      hls.loadSource('master.m3u8');
      hls.attachMedia(video);
      setTimeout(finish, 110000);
    } catch (err) { state.errors.push(String(err) + ' (fatal)'); finish(); }
    </script>
    </body></html>
    """
}
