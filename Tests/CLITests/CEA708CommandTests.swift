import Foundation
import TestSupport
import Testing

/// CEA-708 services in real media (ffmpeg-encoded H.264 with the DTVCC packets in its SEI), through
/// the built binary: decoded, named SERVICEn, published as WebVTT renditions beside 608, declared
/// in-band with INSTREAM-ID and protocol version 7.
@Suite(.enabled(if: BuiltTool.subweave != nil && Tools.ffmpeg != nil && Tools.ffprobe != nil, "the subweave binary or ffmpeg is missing"))
struct CEA708CommandTests {
    /// CC1 (English, 608), SERVICE1 (the same English programme, 708) and SERVICE2 (Spanish, 708).
    static func script() -> CaptionScript {
        var script = CaptionScript()
        script.popOn(["English from 608"], at: 10)
        script.send([CC608.command(0x2C)], at: 100)
        script.send708(DTVCC.defineWindow(0, visible: false), DTVCC.text("English from 708"), service: 1, at: 12)
        script.send708(DTVCC.displayWindows([0]), service: 1, at: 30)
        script.send708(DTVCC.hideWindows([0]), service: 1, at: 100)
        script.send708(DTVCC.defineWindow(0, visible: false), DTVCC.text("Español"), DTVCC.extended(0x39), service: 2, at: 14)
        script.send708(DTVCC.displayWindows([0]), service: 2, at: 75)  // 2.502 s: in the second segment
        script.send708(DTVCC.deleteWindows([0]), service: 2, at: 140)
        return script
    }

    @Test(arguments: [false, true])
    func servicesAreDecodedPublishedAndDeclared(fmp4: Bool) throws {
        let hls = try CaptionedStream.hls(script: Self.script(), frames: 180, fmp4: fmp4)
        let listed = try BuiltTool.run(["captions", hls + "/master.m3u8", "--json"])
        #expect(listed.status == 0, "\(listed.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [String: Any])
        let services = try #require(object["services"] as? [[String: Any]])
        #expect(services.compactMap { $0["service"] as? String } == ["CC1", "SERVICE1", "SERVICE2"], "\(listed.stdout)")
        let texts = services.map { (($0["cues"] as? [[String: Any]]) ?? []).compactMap { $0["text"] as? String } }
        #expect(texts == [["English from 608"], ["English from 708"], ["Español™"]], "\(texts)")
        let second = try #require((services[2]["cues"] as? [[String: Any]])?.first)
        #expect(abs((second["startTime"] as? Double ?? 0) - 75 * 1001 / 30000.0) < 0.0005, "\(second)")

        // By default SERVICE1 (English, like CC1) is left out, with a warning; SERVICE2 is published.
        let packaged = try BuiltTool.run(["package", hls + "/master.m3u8", "--caption-language", "en", "--caption-service", "SERVICE2:language=es", "--json"])
        #expect(packaged.status == 0, "\(packaged.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(packaged.stdout.utf8)) as? [String: Any])
        let warnings = (report["warnings"] as? [[String: Any]] ?? []).compactMap { $0["code"] as? String }
        #expect(warnings.contains("caption_service_left_out"), "\(warnings)")
        let master = try String(contentsOfFile: hls + "/master.m3u8", encoding: .utf8)
        #expect(master.contains("URI=\"captions/cc1/") && master.contains("URI=\"captions/service2/") && !master.contains("captions/service1/"), "\(master)")
        #expect(master.contains("LANGUAGE=\"es\""), "\(master)")
        let generation = try Packaged.generation(master: hls + "/master.m3u8", folder: "captions/service2")
        let segment = try String(contentsOfFile: generation + "/00002.vtt", encoding: .utf8)
        #expect(segment.contains("Español™") && segment.contains("X-TIMESTAMP-MAP"), "\(segment)")
        let listedRenditions = try BuiltTool.run(["list", hls + "/master.m3u8"])
        #expect(listedRenditions.stdout.contains("cea708:SERVICE2"), "\(listedRenditions.stdout)")

        // In-band: SERVICE2 declared with INSTREAM-ID and VERSION 7.
        let inBand = try BuiltTool.run([
            "package", hls + "/master.m3u8", "--closed-captions", "in-band", "--caption-service", "SERVICE2:language=es", "--caption-language", "en",
            "--dry-run",
        ])
        #expect(inBand.status == 0, "\(inBand.stderr)")
        #expect(inBand.stdout.contains("INSTREAM-ID=\"SERVICE2\"") && inBand.stdout.contains("#EXT-X-VERSION:7"), "\(inBand.stdout)")
        #expect(inBand.stdout.contains("INSTREAM-ID=\"CC1\"") && !inBand.stdout.contains("INSTREAM-ID=\"SERVICE1\""), "\(inBand.stdout)")
    }

    /// MPEG-2 video carries the same cc_data in each picture's user data (`GA94`, ATSC A/53 Part
    /// 4): ffmpeg's MPEG-2 encoder writes the H.264 stream's triplets there, 708 ones included,
    /// and the services decode as from H.264, on the same frames.
    @Test func mpeg2UserDataCarriesTheServices() throws {
        let folder = try Scratch.make().path
        let h264 = try CaptionedStream.make(script: Self.script(), frames: 180, folder: folder)
        let mpeg2 = try CaptionedStream.mpeg2(from: h264, folder: folder)
        var decoded: [[String]] = []
        for file in [h264, mpeg2] {
            let listed = try BuiltTool.run(["captions", file, "--json"])
            #expect(listed.status == 0, "\(listed.stderr)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [String: Any])
            let services = try #require(object["services"] as? [[String: Any]])
            decoded.append(
                services.flatMap { service in
                    ((service["cues"] as? [[String: Any]]) ?? []).map {
                        let frames = (($0["startTime"] as? Double ?? -1) * 30000 / 1001).rounded()
                        return "\(service["service"] ?? "?") \(Int(frames)) \($0["text"] ?? "?")"
                    }
                })
        }
        #expect(decoded[0] == ["CC1 24 English from 608", "SERVICE1 30 English from 708", "SERVICE2 75 Español™"], "\(decoded[0])")
        #expect(decoded[1] == decoded[0], "MPEG-2: \(decoded[1])")
    }

    /// The operator may publish the duplicate too, or choose 708 instead of 608.
    @Test func theOperatorChoosesPerService() throws {
        let hls = try CaptionedStream.hls(script: Self.script(), frames: 180)
        let both = try BuiltTool.run(
            [
                "package", hls + "/master.m3u8", "--caption-language", "en", "--caption-service", "SERVICE1:publish=yes", "--caption-service", "CC1:publish=no",
                "--strict",
            ])
        #expect(both.status == 0, "\(both.stderr)")
        let master = try String(contentsOfFile: hls + "/master.m3u8", encoding: .utf8)
        #expect(master.contains("captions/service1/") && !master.contains("captions/cc1/"), "\(master)")
        // SERVICE2 has the video's English too now that CC1 is off: published, no warning.
        #expect(master.contains("captions/service2/"), "\(master)")
    }
}

/// validate: a 708 service declared in a playlist of a version below 7.
struct ServiceVersionRuleTests {
    @Test(.enabled(if: BuiltTool.subweave != nil, "the subweave binary is not built"))
    func aServiceDeclarationNeedsVersion7() throws {
        let dir = try Fixtures.copyExample()
        let master = dir + "/master.m3u8"
        var text = try String(contentsOfFile: master, encoding: .utf8)
        text = text.replacingOccurrences(
            of: "#EXT-X-STREAM-INF:",
            with:
                "#EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID=\"cc\",NAME=\"708\",LANGUAGE=\"en\",INSTREAM-ID=\"SERVICE1\"\n#EXT-X-STREAM-INF:CLOSED-CAPTIONS=\"cc\",",
            options: [], range: text.range(of: "#EXT-X-STREAM-INF:"))
        text = text.replacingOccurrences(of: "#EXT-X-STREAM-INF:BANDWIDTH=160000", with: "#EXT-X-STREAM-INF:CLOSED-CAPTIONS=\"cc\",BANDWIDTH=160000")
        try text.write(toFile: master, atomically: true, encoding: .utf8)
        let old = try BuiltTool.run(["validate", master, "--json"])
        #expect(old.stdout.contains("captions.service-needs-version-7"), "\(old.stdout)")
        try text.replacingOccurrences(of: "#EXT-X-VERSION:3", with: "#EXT-X-VERSION:7").write(toFile: master, atomically: true, encoding: .utf8)
        let new = try BuiltTool.run(["validate", master, "--json"])
        #expect(!new.stdout.contains("captions.service-needs-version-7"), "\(new.stdout)")
    }
}
