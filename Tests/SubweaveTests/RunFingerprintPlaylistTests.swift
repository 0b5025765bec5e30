import Foundation
import TestSupport
import Testing
import Timebase

@testable import Subweave

/// A playlist is taken for one of Subweave's generations only when every file it names is a
/// plain name in its folder; anything else (a path, a URL, a variable, an odd map) is read in
/// full and each file stat'd.
struct RunFingerprintPlaylistTests {
    @Test func onlyPlainNamesAreTakenForAGenerationsOwn() {
        let plain = "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXT-X-MAP:URI=\"init.mp4\"\n#EXTINF:6.000,\n00000.m4s\r\n#EXTINF:6.000,\n00001.m4s\n\n#EXT-X-ENDLIST\n"
        #expect(StagedGeneration.namesOnlyPlainFiles(Array(plain.utf8)))
        #expect(StagedGeneration.namesOnlyPlainFiles(Array("#EXTM3U\n".utf8)))
        for odd in [
            "#EXTM3U\n#EXTINF:6,\n../other/00000.vtt\n", "#EXTM3U\n#EXTINF:6,\nhttps://cdn.example/00000.vtt\n", "#EXTM3U\n#EXTINF:6,\n/abs/00000.vtt\n",
            "#EXTM3U\n#EXT-X-DEFINE:NAME=\"a\",VALUE=\"b\"\n#EXTINF:6,\n{$a}.vtt\n", "#EXTM3U\n#EXT-X-MAP:URI=\"../init.mp4\"\n#EXTINF:6,\n0.m4s\n",
            "#EXTM3U\n#EXT-X-MAP:URI=\"{$a}.mp4\"\n", "#EXTM3U\n#EXT-X-MAP:BYTERANGE=\"1@0\"\n", "#EXTM3U\n#EXTINF:6,\n 00000.vtt\n",
            "#EXTM3U\n#EXTINF:6,\n..\n", "#EXTM3U\n#EXT-X-KEY:METHOD=AES-128,URI=\"{$k}\"\n#EXTINF:6,\n0.ts\n",
        ] {
            #expect(!StagedGeneration.namesOnlyPlainFiles(Array(odd.utf8)), "\(odd)")
        }
    }

    /// The one-pass scan answers as reading the playlist line by line into strings does, over
    /// generated playlists of plain and odd names, CR LF and bare LF, blank lines and no final
    /// line break.
    @Test func theScanAnswersAsReadingLinesDoes() {
        func byLines(_ text: String) -> Bool {
            for var line in text.utf8.split(separator: 0x0A) {
                if line.last == 0x0D { line = line.dropLast() }
                if line.isEmpty { continue }
                let string = String(decoding: line, as: UTF8.self)
                if string.hasPrefix("#") {
                    if string.contains("{$") { return false }
                    guard string.hasPrefix("#EXT-X-MAP:") else { continue }
                    guard let uri = string.split(separator: "URI=\"", maxSplits: 1).dropFirst().first?.split(separator: "\"").first,
                        MediaReader.LocalPaths.isPlainFileName(String(uri))
                    else { return false }
                    continue
                }
                if string == "." || string == ".." || !string.utf8.allSatisfy({ $0 < 0x80 && (isalnum(Int32($0)) != 0 || "-_.".utf8.contains($0)) }) {
                    return false
                }
            }
            return true
        }
        let pieces = [
            "#EXTM3U", "#EXTINF:6.000,", "00000.vtt", "a-b_c.m4s", ".", "..", "...", ".hidden", "../x.vtt", "dir/x.vtt", "x y.vtt", "é.vtt",
            "{$v}.vtt", "#EXT-X-MAP:URI=\"init.mp4\"", "#EXT-X-MAP:URI=\"../init.mp4\"", "#EXT-X-MAP:BYTERANGE=\"1@0\"", "#EXT-X-KEY:URI=\"{$k}\"", "",
            " ", "\r",
        ]
        var generator = SystemRandomNumberGenerator()
        var disagreements: [String] = []
        for _ in 0..<3_000 {
            var text = ""
            for _ in 0..<Int.random(in: 0...6, using: &generator) {
                text += pieces.randomElement(using: &generator)!
                text += Bool.random(using: &generator) ? "\n" : "\r\n"
            }
            if Bool.random(using: &generator), let last = pieces.randomElement(using: &generator) { text += last }
            if StagedGeneration.namesOnlyPlainFiles(Array(text.utf8)) != byLines(text) { disagreements.append(text) }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(3))")
        #expect(StagedGeneration.namesOnlyPlainFiles(Array("#EXTM3U\n#EXTINF:6,\n...\n".utf8)))
        #expect(!StagedGeneration.namesOnlyPlainFiles(Array("#EXTM3U\n#EXTINF:6,\n.\r\n".utf8)))
        #expect(!StagedGeneration.namesOnlyPlainFiles(Array("#EXTM3U\n#EXTINF:6,\n00000.vtt\nx/y".utf8)))
    }

    /// Adding an array of bytes hashes as adding the same bytes as any sequence does.
    @Test func anArrayHashesAsItsBytes() {
        let bytes = (0..<1_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        var a = ContentHash(), b = ContentHash()
        a.add(bytes)
        b.add(bytes[...])
        #expect(a.hex(16) == b.hex(16))
    }

    /// A playlist the master names many times is read once and counted each time; a change to
    /// any playlist changes the fingerprint, and a playlist that cannot be read leaves none.
    @Test func aPlaylistNamedManyTimesIsReadOnceAndAnyChangeCounts() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fingerprint-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        func write(_ text: String, _ name: String) throws { try text.write(toFile: folder + "/" + name, atomically: true, encoding: .utf8) }
        let media = "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\ns0.ts\n#EXT-X-ENDLIST\n"
        try write(media, "a.m3u8")
        try write(media, "b.m3u8")
        try write("x", "s0.ts")
        let variant = { (uri: String, bandwidth: Int) in "#EXT-X-STREAM-INF:BANDWIDTH=\(bandwidth)\n\(uri)\n" }
        let master = URL(fileURLWithPath: folder + "/master.m3u8")
        try write("#EXTM3U\n" + variant("a.m3u8", 1) + variant("a.m3u8", 2) + variant("b.m3u8", 3), "master.m3u8")
        let first = try #require(RunFingerprint.compute(master: master, command: ["package"], sources: []))
        #expect(RunFingerprint.compute(master: master, command: ["package"], sources: []) == first, "the same inputs, the same fingerprint")
        try write(media + "\n", "b.m3u8")
        let changed = try #require(RunFingerprint.compute(master: master, command: ["package"], sources: []))
        #expect(changed != first, "a change to a playlist named once")
        try write(media + "\n", "a.m3u8")
        #expect(RunFingerprint.compute(master: master, command: ["package"], sources: []) != changed, "a change to a playlist named twice")
        try write("#EXTM3U\n" + variant("a.m3u8", 1) + variant("missing.m3u8", 2) + variant("a.m3u8", 3), "master.m3u8")
        #expect(RunFingerprint.compute(master: master, command: ["package"], sources: []) == nil, "a playlist that cannot be read")
    }

    /// A run keeps its fingerprint only while the master holds what the run wrote (known by its
    /// digest): a master another run wrote since, even of the same length, leaves none.
    @Test func theMasterMustHoldWhatTheRunWrote() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fingerprint-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\ns0.ts\n#EXT-X-ENDLIST\n".write(toFile: folder + "/a.m3u8", atomically: true, encoding: .utf8)
        try "x".write(toFile: folder + "/s0.ts", atomically: true, encoding: .utf8)
        let wrote = "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\na.m3u8\n", other = "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=2\na.m3u8\n"
        let master = URL(fileURLWithPath: folder + "/master.m3u8")
        try wrote.write(to: master, atomically: true, encoding: .utf8)
        let digest = WrittenDigest(of: Array(wrote.utf8))
        #expect(RunFingerprint.compute(master: master, command: ["package"], sources: [], expectedMaster: digest) != nil)
        try other.write(to: master, atomically: true, encoding: .utf8)
        #expect(RunFingerprint.compute(master: master, command: ["package"], sources: [], expectedMaster: digest) == nil)
        // The digest of bytes handed over in pieces is the digest of the whole.
        var pieces = WrittenDigest()
        let bytes = Array(wrote.utf8)
        bytes.withUnsafeBufferPointer { all in
            pieces.add(UnsafeBufferPointer(rebasing: all[..<7]))
            pieces.add(UnsafeBufferPointer(rebasing: all[7...]))
        }
        #expect(pieces == digest && pieces.count == bytes.count)
    }

    /// The pieces a package run works out as it starts stand for the playlists it does not write.
    ///
    /// With nothing changed they give the fingerprint working them out at its end gives; a
    /// segment replaced while the run reads leaves a fingerprint the next run does not match (it
    /// reads the title again). Subweave's own renditions are left to the end.
    @Test func piecesWorkedOutAtTheStartStandForWhatTheRunRead() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fingerprint-\(UUID().uuidString)").path
        let generation = folder + "/subtitles/en/0123456789ab"
        try FileManager.default.createDirectory(atPath: generation, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        func write(_ text: String, _ path: String) throws { try text.write(toFile: folder + "/" + path, atomically: true, encoding: .utf8) }
        try write("#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\ns0.ts\n#EXT-X-ENDLIST\n", "a.m3u8")
        try write("x", "s0.ts")
        try write("#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\n00000.vtt\n#EXT-X-ENDLIST\n", "subtitles/en/0123456789ab/index.m3u8")
        try write("WEBVTT\n", "subtitles/en/0123456789ab/00000.vtt")
        try write("{}", "subtitles/en/0123456789ab/" + RenditionRecord.fileName)
        let master = URL(fileURLWithPath: folder + "/master.m3u8")
        try write(
            "#EXTM3U\n#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID=\"subs\",NAME=\"en\",LANGUAGE=\"en\",URI=\"subtitles/en/0123456789ab/index.m3u8\"\n"
                + "#EXT-X-STREAM-INF:BANDWIDTH=1,SUBTITLES=\"subs\"\na.m3u8\n", "master.m3u8")
        let early = RunFingerprint.inputPieces(master: master)
        #expect(Set(early.keys) == [folder + "/a.m3u8"], "the variant's playlist, not Subweave's rendition")
        let atEnd = try #require(RunFingerprint.compute(master: master, command: ["package"], sources: []))
        #expect(RunFingerprint.compute(master: master, command: ["package"], sources: [], known: early) == atEnd, "nothing changed")
        try write("yy", "s0.ts")
        let kept = try #require(RunFingerprint.compute(master: master, command: ["package"], sources: [], known: early))
        #expect(kept == atEnd, "the segment as the run read it")
        #expect(RunFingerprint.compute(master: master, command: ["package"], sources: []) != kept, "the next run reads the title again")
    }

    /// The renditions a run staged stand in its fingerprint for what the disk holds.
    ///
    /// Worked out as they were written, once in place, they are the same pieces as reading each
    /// playlist back and listing its folder; a file that later appears in a generation changes
    /// the piece the disk gives.
    @Test func stagedRenditionsStandForWhatTheDiskHolds() async throws {
        let folder = try Fixtures.copyExample()
        let master = URL(fileURLWithPath: folder + "/master.m3u8")
        let subs = try FileManager.default.contentsOfDirectory(atPath: folder + "/subs").filter { $0.hasSuffix(".srt") || $0.hasSuffix(".vtt") }.sorted()
        let tracks = try SubtitleTrack.register(
            subs.enumerated().map { index, name in
                try TrackDescriptor(parsing: "url=\(folder)/subs/\(name),language=\(["en", "fr", "de", "es"][index % 4])", origin: name)
            })
        let plan = try await Packager().run(master: master, PackageRequest(tracks: tracks))
        let written = RunFingerprint.writtenPieces(plan.renditions, master: master)
        #expect(written.count == tracks.count, "every rendition was staged: \(written.keys.sorted())")
        let fromDisk = try #require(RunFingerprint.compute(master: master, command: ["package"], sources: []))
        #expect(RunFingerprint.compute(master: master, command: ["package"], sources: [], known: written) == fromDisk)
        let generation = try #require(written.keys.sorted().first.map { URL(fileURLWithPath: $0).deletingLastPathComponent().path })
        try "x".write(toFile: generation + "/stray.vtt", atomically: false, encoding: .utf8)
        #expect(RunFingerprint.compute(master: master, command: ["package"], sources: []) != fromDisk, "a file that appeared in a generation")
        #expect(RunFingerprint.compute(master: master, command: ["package"], sources: [], known: written) == fromDisk, "the pieces as written")
    }
}
