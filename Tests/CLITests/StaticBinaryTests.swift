import Foundation
import TestSupport
import Testing

/// The installable binary (`swift build -c release --static-swift-stdlib`, what Scripts/install.sh
/// and the Dockerfile build) runs on a machine without the Swift toolchain: started with a PATH
/// and library path that do not reach /opt/swift, it packages the example.
///
/// .ci/run builds it first; without it the test is skipped with a message.
@Suite(
    .enabled(if: StaticBinary.path != nil, "no static binary: run `swift build -c release --static-swift-stdlib --product subweave --build-path .build/static`")
)
struct StaticBinaryTests {
    @Test func runsWithoutTheToolchain() throws {
        let binary = try #require(StaticBinary.path)
        // No libswiftCore, no libFoundation: the Swift runtime is inside the binary.
        let ldd = try Tools.run("/usr/bin/ldd", [binary])
        #expect(ldd.status == 0)
        #expect(!ldd.stdout.contains("libswift") && !ldd.stdout.contains("libFoundation") && !ldd.stdout.contains("/opt/swift"), "\(ldd.stdout)")
        #expect(!ldd.stdout.contains("libcurl"), "libcurl is loaded when a URL is read, not at start-up: \(ldd.stdout)")

        let bare = ["PATH": "/usr/bin:/bin", "HOME": NSTemporaryDirectory(), "LANG": "C"]
        let version = try Tools.run(binary, ["--version"], environment: bare)
        #expect(version.status == 0, "\(version.stderr)")
        #expect(version.stdout.hasPrefix("subweave "))

        let dir = try Fixtures.copyExample()
        let packaged = try Tools.run(
            binary, ["package", dir + "/master.m3u8", "--subtitle", "url=\(dir)/subs/en.srt,language=en", "--json"], environment: bare)
        #expect(packaged.status == 0, "\(packaged.stderr)")
        let master = try String(contentsOfFile: dir + "/master.m3u8", encoding: .utf8)
        #expect(master.contains("#EXT-X-MEDIA:TYPE=SUBTITLES,URI=\"subtitles/en-en/"))
        let manual = try Tools.run(binary, ["--manual"], environment: bare)
        #expect(manual.status == 0 && manual.stdout.hasPrefix(".TH SUBWEAVE 1"), "\(manual.stdout.prefix(80))")
    }
}

/// libcurl and the TLS libraries behind it are loaded the first time a URL is read: a run on
/// local files never maps them (their start-up was most of the tool's), a run on a URL does.
@Suite(
    .enabled(if: StaticBinary.path != nil && Tools.which("python3") != nil, "needs the static binary and python3")
)
struct OnDemandNetworkingTests {
    @Test func libcurlIsLoadedOnlyToReadAURL() throws {
        let binary = try #require(StaticBinary.path)
        let dir = try Fixtures.copyExample()
        let server = try #require(try TestHTTPServer(root: dir + "/subs"))
        // The dynamic loader names every object it maps, dlopen'ed ones included.
        let traced = ["PATH": "/usr/bin:/bin", "HOME": NSTemporaryDirectory(), "LANG": "C", "LD_DEBUG": "files"]
        let local = try Tools.run(binary, ["cues", dir + "/subs/en.srt"], environment: traced)
        #expect(local.status == 0, "\(local.stderr.suffix(400))")
        #expect(!local.stderr.contains("libcurl"), "a local file loaded libcurl")
        let remote = try Tools.run(binary, ["cues", server.url("files/en.srt")], environment: traced)
        #expect(remote.status == 0, "\(remote.stderr.suffix(400))")
        #expect(remote.stderr.contains("libcurl"), "the URL was read without libcurl?")
        #expect(remote.stdout == local.stdout, "the same cues from the URL as from the file")
    }
}

enum StaticBinary {
    static let path: String? = {
        let candidates: [String?] = [
            ProcessInfo.processInfo.environment["SUBWEAVE_STATIC_BINARY"],
            Fixtures.repository.appendingPathComponent(".build/static/release/subweave").path,
        ]
        return candidates.compactMap { $0 }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()
}
