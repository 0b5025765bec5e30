import Foundation
import Subweave
import Synchronization
import TestSupport
import Testing

/// A live video playlist that goes back: a lower media sequence, or segments lost at its end.
///
/// An older copy, as a stale cache serves. The pass is skipped and says why; the follow goes on
/// when the playlist moves forward again.
struct LivePlaylistGoesBackTests {
    /// The example title with its first variant turned into an open EVENT playlist of `count`
    /// segments from media sequence `sequence`.
    static func playlist(_ sequence: Int, _ count: Int, ended: Bool) -> String {
        var text = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:2\n#EXT-X-MEDIA-SEQUENCE:\(sequence)\n#EXT-X-PLAYLIST-TYPE:EVENT\n"
        for index in 0..<count { text += "#EXTINF:2.000000,\nseg_00\(index).ts\n" }
        return text + (ended ? "#EXT-X-ENDLIST\n" : "")
    }

    @Test(arguments: [(8, 3), (10, 2)])
    func aPlaylistThatGoesBackIsSkippedAndSaid(_ back: (sequence: Int, count: Int)) async throws {
        let dir = try Fixtures.copyExample()
        let variant = dir + "/video/high/prog.m3u8"
        try Self.playlist(10, 3, ended: false).write(toFile: variant, atomically: true, encoding: .utf8)
        let passes = Counter()
        let skipped = Mutex<[String]>([])
        var follower = LiveFollower()
        follower.pollInterval = 0.05
        // Ends by ENDLIST; the idle bound only stops a broken test (a starved pool can stall a pass).
        follower.idleTimeout = 600
        follower.onUpdate = { update in
            if let reason = update.skipped { skipped.withLock { $0.append(reason) } }
            switch passes.next() {
            case 1: try? Self.playlist(back.sequence, back.count, ended: false).write(toFile: variant, atomically: true, encoding: .utf8)
            default: try? Self.playlist(10, 5, ended: true).write(toFile: variant, atomically: true, encoding: .utf8)
            }
        }
        let track = try SubtitleTrack(source: .file(URL(fileURLWithPath: dir + "/subs/en.srt")), language: LanguageTag(parsing: "en"))
        let report = try await follower.follow(master: URL(fileURLWithPath: dir + "/master.m3u8"), PackageRequest(tracks: [track], captions: .off))
        #expect(report.reason == "ended")
        let reasons = skipped.withLock { $0 }
        #expect(reasons.count == 1 && reasons[0].contains("went back"), "\(reasons)")
        #expect(report.notes.contains { $0.contains("went back") }, "\(report.notes)")
        // The rendition mirrors the final window, each segment written once.
        let master = try String(contentsOfFile: dir + "/master.m3u8", encoding: .utf8)
        let uri = try #require(master.split(separator: "\"").map(String.init).first { $0.hasSuffix("index.m3u8") && $0.hasPrefix("subtitles/") })
        let subtitles = try String(contentsOfFile: dir + "/" + uri, encoding: .utf8)
        #expect(subtitles.contains("#EXT-X-MEDIA-SEQUENCE:10") && subtitles.components(separatedBy: "#EXTINF").count == 6, "\(subtitles)")
        let validated = await PresentationValidator().validate(master: URL(fileURLWithPath: dir + "/master.m3u8"))
        #expect(validated.errors == 0, "\(validated.findings.map(\.message))")
    }

    final class Counter: Sendable {
        private let value = Mutex(0)
        func next() -> Int {
            value.withLock {
                $0 += 1; return $0
            }
        }
    }
}
