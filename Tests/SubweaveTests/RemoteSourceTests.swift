import Foundation
import Subweave
import TestSupport
import Testing

/// HTTP(S) subtitle sources against a local server on 127.0.0.1: redirects, 404, a slow server,
/// transient failures and the concurrency bound.
@Suite(.enabled(if: Tools.which("python3") != nil, "python3 is not installed"))
struct RemoteSourceTests {
    let root: String
    let server: TestHTTPServer

    init() throws {
        root = try Scratch.make().path
        for i in 1...5 {
            try "\(i)\n00:00:0\(i),000 --> 00:00:0\(i),500\nTrack \(i)\n".write(toFile: "\(root)/t\(i).srt", atomically: true, encoding: .utf8)
        }
        server = try #require(try TestHTTPServer(root: root))
    }

    @Test func followsRedirects() async throws {
        let bytes = try await ResourceLoader().fetch(URL(string: server.url("redirect/t1.srt"))!)
        #expect(String(decoding: bytes, as: UTF8.self).contains("Track 1"))
    }

    @Test func notFoundSaysSo() async throws {
        do {
            _ = try await ResourceLoader().fetch(URL(string: server.url("missing/en.srt"))!)
            Issue.record("expected a failure")
        } catch {
            #expect(error.explanation == "HTTP 404 Not Found")
        }
    }

    @Test func slowServerTimesOut() async throws {
        // The server would answer (successfully) after 30 s; a 1 s timeout must give up first, even
        // on a machine so loaded that the timer fires seconds late.
        // No wall-clock assertion: the machine is shared and the suites run in parallel.
        do {
            _ = try await ResourceLoader(timeout: 1, retries: 0).fetch(URL(string: server.url("slow/30/t1.srt"))!)
            Issue.record("expected a timeout")
        } catch {
            #expect(error.explanation.contains("timed out: no data for 1 s"), "\(error.explanation)")
        }
    }

    @Test func endlessBodyStopsAtTheLimit() async throws {
        var limits = ReadLimits()
        limits.subtitle = 1 << 20
        do {
            _ = try await ResourceLoader(retries: 0, limits: limits).fetch(URL(string: server.url("endless"))!, kind: .subtitle)
            Issue.record("expected the limit")
        } catch {
            #expect(error.explanation.contains("more than 1048576 bytes"), "\(error.explanation)")
            #expect(error.explanation.contains("`ReadLimits.subtitle`"), "the message names the limit to raise, in the library's terms")
        }
    }

    @Test func announcedSizeOverTheLimitIsRefusedBeforeTheBody() async throws {
        do {
            _ = try await ResourceLoader(retries: 0).fetch(URL(string: server.url("announce/8000000000"))!, kind: .subtitle)
            Issue.record("expected the limit")
        } catch {
            #expect(error.explanation.contains("announces 8000000000 bytes"), "\(error.explanation)")
        }
    }

    @Test func aTricklingServerHitsTheOverallTimeout() async throws {
        // One byte every 0.2 s is never idle for the 5 s idle timeout; the 2 s overall one ends it.
        do {
            _ = try await ResourceLoader(timeout: 5, overallTimeout: 2, retries: 0).fetch(URL(string: server.url("trickle/t1.srt"))!)
            Issue.record("expected the overall timeout")
        } catch {
            #expect(error.explanation.contains("overall timeout"), "\(error.explanation)")
        }
    }

    @Test func transientFailuresAreRetried() async throws {
        let bytes = try await ResourceLoader(retries: 2).fetch(URL(string: server.url("flaky/a/t2.srt"))!)
        #expect(String(decoding: bytes, as: UTF8.self).contains("Track 2"))
        do {
            _ = try await ResourceLoader(retries: 0).fetch(URL(string: server.url("flaky/b/t2.srt"))!)
            Issue.record("expected the 503")
        } catch {
            #expect(error.explanation.hasPrefix("HTTP 503"))
        }
    }

    @Test func fetchesConcurrentlyWithABound() async throws {
        let dir = try Fixtures.copy("media/ts-bframes")
        let descriptors = try (1...5).map { i in
            try TrackDescriptor(parsing: "url=\(server.url("track/t\(i).srt")),id=t\(i),language=en,name=T\(i)", origin: "#\(i)")
        }
        let tracks = try SubtitleTrack.register(descriptors)
        let started = Date()
        let result = try await Presentation(master: URL(fileURLWithPath: dir + "/master.m3u8")).plan(PackageRequest(tracks: tracks))
        let elapsed = Date().timeIntervalSince(started)
        #expect(result.report.tracks.map(\.cueCount) == [1, 1, 1, 1, 1])
        let stats = try server.stats()
        #expect(stats.requests == 5)
        #expect(stats.maxInFlight == 3, "at most three requests at once, and the bound is used")
        #expect(elapsed >= 0.6, "five 0.3 s requests three at a time take two rounds")
    }

    @Test func unreachableSourceFailsTheRunWithTheStatus() async throws {
        let dir = try Fixtures.copy("media/ts-bframes")
        let before = try FolderSnapshot(dir)
        let tracks = try SubtitleTrack.register([try TrackDescriptor(parsing: "url=\(server.url("missing/en.srt")),language=en", origin: "#1")])
        do {
            _ = try await Packager().run(master: URL(fileURLWithPath: dir + "/master.m3u8"), PackageRequest(tracks: tracks))
            Issue.record("expected a load failure")
        } catch {
            #expect("\(error)".contains("HTTP 404 Not Found"), "\(error)")
        }
        #expect(before.differences(to: try FolderSnapshot(dir)) == [])
    }
}
