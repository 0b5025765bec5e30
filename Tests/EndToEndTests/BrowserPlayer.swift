import Foundation
import HLS
import TestSupport
import Testing

/// Playing a site in Chromium with hls.js and reading back what the player showed.
extension BrowserPlaybackTests {
    /// Puts hls.js and the test page beside the title in `site`.
    static func addPlayer(to site: String) throws {
        try FileManager.default.copyItem(atPath: hlsjs!, toPath: site + "/hls.mjs")
        try page.write(toFile: site + "/page.html", atomically: true, encoding: .utf8)
    }

    struct PlayerResult: Decodable, CustomStringConvertible {
        struct Track: Decodable { let label: String; let language: String; let mode: String; let cues: [Cue]? }
        struct Cue: Decodable {
            let start: Double
            let end: Double
            let text: String
            /// The VTTCue's placement as the browser parsed it (nil: `auto`).
            var line: Double?
            var snapToLines: Bool?
            var lineAlign: String?
            var position: Double?
            var align: String?
        }
        let tracks: [Track]
        let errors: [String]
        let log: [String]?
        /// hls.js's initPTS per discontinuity (cc), in 90 kHz ticks.
        let initPTS: [String: Double]
        let version: String?
        /// Where the video's buffered range starts: the first frame on the player's clock.
        let bufferedStart: Double?
        let processed: Int?
        let expected: Int?
        var description: String { "hls.js \(version ?? "?"): \(tracks.count) tracks, errors \(errors), events \(log ?? [])" }
    }

    /// Serves `site` and runs the page in headless Chromium, in real time; returns what the page
    /// posted back once hls.js had parsed every subtitle segment.
    static func play(site: String) throws -> PlayerResult { try play(site: site, query: "").result }

    /// As ``play(site:)``, with the page's `query` (`lang=fr`, `buffer=4`, `play=1`), running
    /// `meanwhile` (given the server) once the browser has started; returns what the page posted
    /// and every request the player made.
    static func play(site: String, query: String, meanwhile: ((TestHTTPServer) throws -> Void)? = nil) throws -> (
        result: PlayerResult, requests: [(path: String, status: Int)]
    ) {
        let (data, requests) = try open("page.html" + (query.isEmpty ? "" : "?" + query), in: site, meanwhile: meanwhile)
        return (try JSONDecoder().decode(PlayerResult.self, from: data), requests)
    }

    /// Serves `site` and opens its `page` in headless Chromium, in real time, running `meanwhile`
    /// (given the server) once the browser has started; returns what the page posted to
    /// `/result` and every request it made.
    static func open(_ page: String, in site: String, meanwhile: ((TestHTTPServer) throws -> Void)? = nil) throws -> (
        data: Data, requests: [(path: String, status: Int)]
    ) {
        let server = try #require(try TestHTTPServer(root: site))
        let profile = try Scratch.make().path
        // Foundation starts the child as the leader of its own process group, which Chromium's
        // helper processes join: one kill of the group ends them all.
        let chrome = Process()
        chrome.executableURL = URL(fileURLWithPath: chromium!)
        chrome.arguments = [
            "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run", "--mute-audio",
            "--user-data-dir=\(profile)", "--autoplay-policy=no-user-gesture-required", server.url("files/" + page),
        ]
        chrome.standardOutput = FileHandle.nullDevice
        chrome.standardError = FileHandle.nullDevice
        try chrome.run()
        defer {
            kill(-chrome.processIdentifier, SIGKILL)
            kill(chrome.processIdentifier, SIGKILL)
            chrome.waitUntilExit()
        }
        try meanwhile?(server)
        let resultPath = site + "/result.json"
        let deadline = Date().addingTimeInterval(120)
        while !FileManager.default.fileExists(atPath: resultPath) && Date() < deadline { usleep(100_000) }
        guard let data = FileManager.default.contents(atPath: resultPath) else {
            throw MissingTool(name: "the page's report within 120 s (is chromium able to run headless here?)")
        }
        return (data, try server.requests())
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
                     cues: t.cues ? Array.from(t.cues).map(c => ({ start: c.startTime, end: c.endTime, text: c.text,
                       line: typeof c.line === 'number' ? c.line : null, snapToLines: c.snapToLines, lineAlign: c.lineAlign,
                       position: typeof c.position === 'number' ? c.position : null, align: c.align })) : null };
          });
          if (video.buffered.length > 0) state.bufferedStart = video.buffered.start(0);
          out.textContent = JSON.stringify(state);
          fetch('/result', { method: 'POST', body: out.textContent });
        }
        try {
          // gradio's bundle exports a helper that makes an Hls instance; its constructor is the Hls class.
          const scratch = attach(document.createElement('video'), 'about:blank');
          const Hls = scratch.constructor; scratch.destroy();
          state.version = Hls.version;
          const video = document.getElementById('v');
          // ?lang=fr selects another track; ?buffer=4&play=1 plays in real time with a short
          // buffer, so that fragments are fetched as playback reaches them (mid-playback).
          const query = new URLSearchParams(location.search);
          const wanted = query.get('lang') || 'en';
          const buffer = Number(query.get('buffer') || 60);
          const hls = new Hls({ maxBufferLength: buffer, maxMaxBufferLength: buffer, enableWorker: false, startPosition: 0 });
          hls.on(Hls.Events.INIT_PTS_FOUND, (e, d) => { state.initPTS[d.frag.cc] = d.initPTS * 90000 / d.timescale; });
          hls.on(Hls.Events.ERROR, (e, d) => { state.errors.push(d.details + (d.fatal ? ' (fatal)' : '')); });
          // Driven by events, not by the clock: the English track is selected as soon as hls.js has
          // both the media and its subtitle track list (whichever event comes last; the list may
          // arrive after MANIFEST_PARSED), and again by a watchdog until its playlist loads. Nothing
          // plays: hls.js loads every fragment within maxBufferLength of position 0.
          // ?waitpts=1 selects it only once the video's initPTS is known: hls.js 1.6 parses an IMSC1
          // fragment that arrives before it without one and throws (WebVTT fragments wait).
          const waitPTS = query.get('waitpts') === '1';
          const select = () => {
            if (!hls.media || !hls.subtitleTracks || hls.subtitleTracks.length === 0) return;
            if (waitPTS && Object.keys(state.initPTS).length === 0) return;
            // The English track, else (captions of a stream that declares no language) the first.
            let index = hls.subtitleTracks.findIndex(t => t.lang === wanted);
            if (index < 0) index = 0;
            if (hls.subtitleTrack !== index) hls.subtitleTrack = index;
            hls.subtitleDisplay = true;
          };
          for (const name of ['MANIFEST_PARSED', 'MEDIA_ATTACHED', 'SUBTITLE_TRACKS_UPDATED', 'INIT_PTS_FOUND']) hls.on(Hls.Events[name], select);
          // hls.js selects a DEFAULT=YES subtitle track by itself as soon as the list arrives; with
          // ?waitpts=1 that selection is undone until the initPTS is known (select() makes it
          // then), so that no subtitle fragment (nor its key) is loaded before the video's.
          hls.on(Hls.Events.SUBTITLE_TRACK_SWITCH, (e, d) => {
            if (waitPTS && Object.keys(state.initPTS).length === 0 && d.id >= 0) hls.subtitleTrack = -1;
          });
          const watchdog = setInterval(() => { if (state.expected < 0) select(); else clearInterval(watchdog); }, 250);
          state.log = [];
          const t0 = performance.now();
          for (const name of ['MANIFEST_PARSED', 'MEDIA_ATTACHED', 'SUBTITLE_TRACKS_UPDATED', 'SUBTITLE_TRACK_SWITCH', 'SUBTITLE_TRACK_LOADING',
                              'SUBTITLE_TRACK_LOADED', 'FRAG_LOADING', 'FRAG_LOADED', 'FRAG_BUFFERED', 'SUBTITLE_FRAG_PROCESSED', 'INIT_PTS_FOUND', 'ERROR', 'LEVEL_LOADED']) {
            hls.on(Hls.Events[name], (e, d) => { state.log.push(Math.round(performance.now() - t0) + ' ' + name + (d && d.frag ? ' ' + d.frag.type + ' ' + d.frag.sn + ' cc' + d.frag.cc : '') + (d && d.details && typeof d.details === 'string' ? ' ' + d.details : '')); });
          }
          // A live playlist is complete once it has ended (ENDLIST): count its fragments then.
          hls.on(Hls.Events.SUBTITLE_TRACK_LOADED, (e, d) => { if (!d.details.live) state.expected = d.details.fragments.length; });
          hls.on(Hls.Events.SUBTITLE_FRAG_PROCESSED, () => { state.processed += 1; });
          // Done when every subtitle segment has been parsed (and its cues added), whatever the clock says.
          const poll = setInterval(() => {
            if (state.expected > 0 && state.processed >= state.expected) { clearInterval(poll); setTimeout(finish, 500); }
          }, 100);
          hls.attachMedia(video);
          hls.loadSource('master.m3u8');
          if (query.get('play') === '1') hls.on(Hls.Events.MANIFEST_PARSED, () => { video.play().catch(err => state.errors.push('play: ' + err)); });
          setTimeout(finish, 90000);
        } catch (err) { state.errors.push(String(err) + ' (fatal)'); finish(); }
        </script>
        </body></html>
        """
}
