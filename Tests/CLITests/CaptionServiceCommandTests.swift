import Foundation
import HLS
import TestSupport
import Testing

/// What the operator says of caption services, and the bounded look, through the binary.
@Suite(
    .enabled(if: BuiltTool.subweave != nil, "the subweave binary is not built"),
    .enabled(if: Tools.ffmpeg != nil && Tools.ffprobe != nil, "ffmpeg is missing"))
struct CaptionServiceCommandTests {
    /// A title whose CC1 says "Hello" at frame 40 and CC3 "Hola" at frame 60.
    static func title() throws -> String {
        var script = CaptionScript()
        script.popOn(["Hello"], at: 30)
        script.send([CC608.command(0x2C)], at: 90)
        script.popOn(["Hola"], at: 50, field: 2)
        script.send([CC608.command(0x2C, field: 2)], at: 100, field: 2)
        return try CaptionedStream.hls(script: script, frames: 150, language: nil)
    }

    /// Operator-named services: LANGUAGE, NAME and AUTOSELECT=YES on the SDH renditions, and
    /// LANGUAGE on the in-band declarations (instead of the renditions: a service is never
    /// offered twice); python's m3u8 reads them back.
    @Test func operatorNamedServicesReachTheMaster() throws {
        let hls = try Self.title()
        let published = try BuiltTool.run([
            "package", hls + "/master.m3u8", "--caption-service", "CC1:language=en,name=English CC", "--caption-service", "CC3:language=es",
        ])
        #expect(published.status == 0, "\(published.stderr)")
        let renditions = try String(contentsOfFile: hls + "/master.m3u8", encoding: .utf8)
        #expect(renditions.contains(#"LANGUAGE="en",NAME="English CC",DEFAULT=NO,AUTOSELECT=YES"#), "\(renditions)")
        #expect(renditions.contains(#"LANGUAGE="es",NAME="Spanish (CC3)",DEFAULT=NO,AUTOSELECT=YES"#), "\(renditions)")
        // The same services declared in-band, the names and languages said before kept.
        let run = try BuiltTool.run(["package", hls + "/master.m3u8", "--closed-captions", "in-band", "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        let master = try String(contentsOfFile: hls + "/master.m3u8", encoding: .utf8)
        #expect(master.contains(#"TYPE=CLOSED-CAPTIONS,GROUP-ID="cc",NAME="English CC",LANGUAGE="en",DEFAULT=NO,AUTOSELECT=NO,INSTREAM-ID="CC1""#), "\(master)")
        #expect(!master.contains("TYPE=SUBTITLES"), "\(master)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let captions = try #require(report["captions"] as? [[String: Any]])
        #expect(captions.map { $0["language_source"] as? String } == ["operator", "operator"])
        if ThirdPartyReadersCLI.pythonM3U8 {
            let script = """
                import json, sys, m3u8
                p = m3u8.load(sys.argv[1])
                print(json.dumps([[m.type, m.name, m.language, m.autoselect, m.instream_id] for m in p.media]))
                """
            let outcome = try Tools.run(Tools.which("python3")!, ["-c", script, hls + "/master.m3u8"])
            #expect(outcome.status == 0, "\(outcome.stderr)")
            let media = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [[Any]])
            #expect(
                media.contains {
                    ($0[0] as? String) == "CLOSED-CAPTIONS" && ($0[1] as? String) == "English CC" && ($0[2] as? String) == "en" && ($0[4] as? String) == "CC1"
                })
            #expect(media.contains { ($0[0] as? String) == "CLOSED-CAPTIONS" && ($0[2] as? String) == "es" && ($0[4] as? String) == "CC3" })
        }
        let validate = try BuiltTool.run(["validate", hls + "/master.m3u8"])
        #expect(!validate.stdout.contains("media.sdh-autoselect"), "\(validate.stdout)")
    }

    /// A default language for services nobody names; without one, `und` is a warning and a
    /// strict run fails.
    @Test func unnamedServicesWarnAndTakeTheDefault() throws {
        let hls = try Self.title()
        let strict = try BuiltTool.run(["package", hls + "/master.m3u8", "--strict"])
        #expect(strict.status == 1)
        #expect(strict.stderr.contains("neither the stream nor the operator names the language of CC1"), "\(strict.stderr)")
        let run = try BuiltTool.run(["package", hls + "/master.m3u8", "--caption-language", "fr", "--caption-service", "CC3:publish=no", "--strict"])
        #expect(run.status == 0, "\(run.stderr)")
        let master = try String(contentsOfFile: hls + "/master.m3u8", encoding: .utf8)
        #expect(master.contains(#"LANGUAGE="fr",NAME="French (CC1)""#), "\(master)")
        #expect(!master.contains("captions/cc3"), "CC3 was turned off")
        let bad = try BuiltTool.run(["package", hls + "/master.m3u8", "--caption-service", "CC9:language=en"])
        #expect(bad.status != 0 && bad.stderr.contains("not a caption service"), "\(bad.stderr)")
        let badLanguage = try BuiltTool.run(["package", hls + "/master.m3u8", "--caption-service", "CC1:language=xx"])
        #expect(badLanguage.status != 0 && badLanguage.stderr.contains("not a known BCP 47 language"), "\(badLanguage.stderr)")
    }

    /// `--detect` on a master is a bounded look that says how far it read.
    @Test func detectIsABoundedLook() throws {
        var script = CaptionScript()
        script.popOn(["Much later"], at: 2_000)  // 66.7 s, past the bound
        let hls = try CaptionedStream.hls(script: script, frames: 2_100, segmentSeconds: 6)
        let detect = try BuiltTool.run(["captions", "--detect", hls + "/master.m3u8"])
        #expect(detect.status == 0, "\(detect.stderr)")
        #expect(detect.stdout.contains("no captions in the first") && detect.stdout.contains("says nothing of what comes later"), "\(detect.stdout)")
        let json = try BuiltTool.run(["captions", "--detect", "--json", hls + "/master.m3u8"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["whole_input"] as? Bool == false)
        #expect((object["access_units"] as? Int ?? 0) >= 1_800)
        #expect(((object["seconds_read"] as? Double) ?? 0) > 50)
        let full = try BuiltTool.run(["captions", hls + "/master.m3u8"])
        #expect(full.stdout.contains("Much later"), "\(full.stdout)")
    }

    /// A media fragment without its init segment says what is needed.
    @Test func aFragmentWithoutItsInitSegmentSaysSo() throws {
        let hls = try CaptionedStream.hls(script: CaptionScript(), frames: 60, fmp4: true)
        let run = try BuiltTool.run(["captions", "--detect", hls + "/seg_000.m4s"])
        #expect(run.status == 1)
        #expect(run.stderr.contains("without its initialisation segment") && run.stderr.contains("EXT-X-MAP"), "\(run.stderr)")
    }
}

enum ThirdPartyReadersCLI {
    static let pythonM3U8: Bool = {
        guard let python = Tools.which("python3") else { return false }
        return (try? Tools.run(python, ["-c", "import m3u8"]).status) == 0
    }()
}
