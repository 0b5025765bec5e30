import Foundation
import TestSupport
import Testing

/// What the operator said of a title is kept beside its master and every later command starts
/// from it: `refresh`, `remove` and a re-run of `package` change only what they name.
@Suite(
    .enabled(if: BuiltTool.subweave != nil, "the subweave binary is not built"),
    .enabled(if: Tools.ffmpeg != nil && Tools.ffprobe != nil, "ffmpeg is missing"))
struct IntentRecordTests {
    @discardableResult
    static func run(_ arguments: [String]) throws -> Tools.Outcome {
        let outcome = try BuiltTool.run(arguments)
        #expect(outcome.status == 0, "\(arguments.prefix(2)): \(outcome.stderr)")
        return outcome
    }

    /// The master's EXT-X-MEDIA lines of a type.
    static func media(_ master: String, type: String) throws -> [String] {
        try String(contentsOfFile: master, encoding: .utf8).split(separator: "\n").map(String.init).filter {
            $0.hasPrefix("#EXT-X-MEDIA:TYPE=\(type)")
        }
    }

    /// `validate` finds nothing: no error, no warning.
    static func validatesClean(_ master: String) throws {
        let validated = try BuiltTool.run(["validate", master])
        #expect(validated.status == 0 && validated.stderr.contains("0 errors, 0 warnings"), "\(validated.stdout)\(validated.stderr)")
    }

    /// The first case: the caption settings of the first run hold for a plain refresh,
    /// and a publish=no on a title that already has the service takes it out (it was silent).
    @Test func refreshKeepsTheCaptionSettings() throws {
        let hls = try CaptionedStream.hls()
        let master = hls + "/master.m3u8"
        try Self.run(["package", master, "--caption-service", "CC1:language=en,name=\"English CC\"", "--caption-service", "CC3:publish=no"])
        let first = try Self.media(master, type: "SUBTITLES")
        #expect(first.count == 1 && first[0].contains("NAME=\"English CC\"") && first[0].contains("LANGUAGE=\"en\""), "\(first)")
        try Self.validatesClean(master)

        let refreshed = try Self.run(["refresh", master])
        #expect(try Self.media(master, type: "SUBTITLES") == first, "refresh forgot what was said: \(refreshed.stderr)")
        try Self.validatesClean(master)

        // Said again differently: CC3 is published, then taken out again, each time said.
        try Self.run(["package", master, "--caption-service", "CC3:publish=yes,language=es"])
        #expect(try Self.media(master, type: "SUBTITLES").contains { $0.contains("captions/cc3/") })
        let unpublished = try Self.run(["package", master, "--caption-service", "CC3:publish=no", "--json"])
        #expect(try !Self.media(master, type: "SUBTITLES").contains { $0.contains("captions/cc3/") })
        #expect(unpublished.stdout.contains("caption_rendition_removed"), "\(unpublished.stdout.prefix(2000))")
        #expect(try Self.media(master, type: "SUBTITLES").first == first.first, "CC1's name and language still hold")

        // list --json shows the record.
        let listed = try Self.run(["list", master, "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [String: Any])
        let intent = try #require(object["intent"] as? [String: Any])
        let services = try #require(intent["caption_services"] as? [String: [String: Any]])
        #expect(services["CC1"]?["name"] as? String == "English CC" && services["CC3"]?["publish"] as? Bool == false, "\(intent)")
    }

    /// `remove` keeps the captions as they were published: no CLOSED-CAPTIONS declarations
    /// beside the caption renditions (each service was offered twice), and `list` calls nothing
    /// Subweave wrote "not created by Subweave".
    @Test func removeKeepsTheCaptionsAsTheyWere() throws {
        let hls = try CaptionedStream.hls()
        let master = hls + "/master.m3u8"
        try "1\n00:00:01,000 --> 00:00:02,000\nBonjour\n".write(toFile: hls + "/fr.srt", atomically: true, encoding: .utf8)
        try Self.run(["package", master, "--subtitle", "url=\(hls)/fr.srt,language=fr", "--caption-language", "en"])
        try Self.run(["remove", master, "--language", "fr"])
        #expect(try Self.media(master, type: "CLOSED-CAPTIONS").isEmpty)
        let text = try String(contentsOfFile: master, encoding: .utf8)
        #expect(text.contains("CLOSED-CAPTIONS=NONE") && !text.contains("CLOSED-CAPTIONS=\"cc\""), "\(text)")
        #expect(try Self.media(master, type: "SUBTITLES").count == 2, "CC1 and CC3 stay")
        let listed = try Self.run(["list", master])
        #expect(!listed.stdout.contains("not created by Subweave"), "\(listed.stdout)")
        try Self.validatesClean(master)
    }

    /// In-band declarations are Subweave's own lines: listed as such, and replaced when the
    /// operator says so, never offered beside the renditions.
    @Test func inBandThenBackToRenditions() throws {
        let hls = try CaptionedStream.hls()
        let master = hls + "/master.m3u8"
        try Self.run(["package", master, "--closed-captions", "in-band", "--caption-language", "en"])
        #expect(try Self.media(master, type: "CLOSED-CAPTIONS").count == 2)
        #expect(try Self.media(master, type: "SUBTITLES").isEmpty, "in-band instead of renditions, not both")
        let listed = try Self.run(["list", master])
        #expect(listed.stdout.contains("in-band:CC1") && !listed.stdout.contains("not created by Subweave"), "\(listed.stdout)")
        try Self.run(["refresh", master])
        #expect(try Self.media(master, type: "CLOSED-CAPTIONS").count == 2, "refresh keeps in-band")
        try Self.run(["package", master, "--closed-captions", "auto"])
        #expect(try Self.media(master, type: "CLOSED-CAPTIONS").isEmpty)
        #expect(try Self.media(master, type: "SUBTITLES").count == 2)
        try Self.validatesClean(master)
    }

    /// A caption service is taken out by its ID or language, as a rendition or as an in-band
    /// declaration; the record says not to publish it, so a refresh does not bring it back; and
    /// with the last one gone the master is its input again.
    @Test func captionsTakenOutStayOut() throws {
        let hls = try CaptionedStream.hls()
        let master = hls + "/master.m3u8"
        let original = try String(contentsOfFile: master, encoding: .utf8)
        try Self.run(["package", master, "--caption-language", "en"])
        #expect(try Self.media(master, type: "SUBTITLES").count == 2)
        let removed = try Self.run(["remove", master, "--language", "en", "--json"])
        #expect(try Self.media(master, type: "SUBTITLES").isEmpty, "\(removed.stdout.prefix(1500))")
        // Nothing left to refresh is not a failure (a pipeline refreshes every title).
        let refreshed = try Self.run(["refresh", master, "--json"])
        #expect(refreshed.stderr.contains("nothing to refresh") && refreshed.stdout.contains("subweave.nothing/1"), "\(refreshed.stderr)")
        #expect(try Self.media(master, type: "SUBTITLES").isEmpty, "refresh brought a removed caption back")
        let package = try BuiltTool.run(["package", master])
        #expect(package.status == 1 && package.stderr.contains("(CC1, CC3) are not to be published"), "\(package.stderr)")
        #expect(try String(contentsOfFile: master, encoding: .utf8) == original)

        try Self.run(["package", master, "--caption-service", "CC1:publish=yes", "--caption-service", "CC3:publish=yes", "--closed-captions", "in-band"])
        #expect(try Self.media(master, type: "CLOSED-CAPTIONS").count == 2)
        try Self.run(["remove", master, "--id", "CC3"])
        let declared = try Self.media(master, type: "CLOSED-CAPTIONS")
        #expect(declared.count == 1 && declared[0].contains("INSTREAM-ID=\"CC1\""), "\(declared)")
        try Self.validatesClean(master)
        try Self.run(["remove", master, "--id", "CC1"])
        #expect(try String(contentsOfFile: master, encoding: .utf8) == original, "the last service out gives the master back")
        let again = try BuiltTool.run(["remove", master, "--id", "CC1"])
        #expect(again.status == 1 && again.stderr.contains("matches no subtitle rendition"), "\(again.stderr)")
    }

    /// Taking out everything Subweave added gives back the input master, byte for byte (its
    /// variants had no CLOSED-CAPTIONS, as ffmpeg writes them).
    @Test func removingEverythingGivesTheMasterBack() throws {
        let dir = try Fixtures.copyExample()
        let master = dir + "/master.m3u8"
        let original = try String(contentsOfFile: master, encoding: .utf8)
        try Self.run(["package", master, "--subtitle", "url=\(dir)/subs/en.srt,language=en", "--subtitle", "url=\(dir)/subs/fr.vtt,language=fr"])
        try Self.run(["remove", master, "--language", "fr"])
        try Self.run(["remove", master, "--id", "en"])
        #expect(try String(contentsOfFile: master, encoding: .utf8) == original)
    }

    /// `--replace` that leaves out a track an earlier run gave is a warning naming it, and a
    /// failure under --strict.
    @Test func replacingDropsWhatWasSaidWithAWarning() throws {
        let dir = try Fixtures.copyExample()
        let master = dir + "/master.m3u8"
        try Self.run(["package", master, "--subtitle", "url=\(dir)/subs/en.srt,language=en", "--subtitle", "url=\(dir)/subs/fr.vtt,language=fr"])
        let strict = try BuiltTool.run(["package", master, "--replace", "--subtitle", "url=\(dir)/subs/en.srt,language=en", "--strict"])
        #expect(strict.status == 1 && strict.stderr.contains("external:fr:fr was given by an earlier run"), "\(strict.stderr)")
        let replaced = try Self.run(["package", master, "--replace", "--subtitle", "url=\(dir)/subs/en.srt,language=en", "--json"])
        #expect(replaced.stdout.contains("intent_dropped"), "\(replaced.stdout.prefix(1500))")
        try Self.validatesClean(master)
    }
}
