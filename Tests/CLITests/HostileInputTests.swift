import Foundation
import TestSupport
import Testing

/// The reproducers of the "unbreakable" issue, rebuilt here and run through the built binary: every
/// one must end in a clear error (exit 1, the file and place named) or correct behaviour — never a
/// trap (exit 132 and up), a hang, or a write outside the folder.
@Suite(.enabled(if: BuiltTool.subweave != nil, "the subweave binary is not built"))
struct HostileInputTests {
    /// True when the process ended by itself (not killed by a signal or trapping).
    func endedCleanly(_ outcome: Tools.Outcome) -> Bool { outcome.status == 0 || outcome.status == 1 || outcome.status == 64 }

    @Test func hugeWebVTTHoursAreRejectedNotTrapped() throws {
        for text in [
            "WEBVTT\n\n00:00:05.000 --> 99999999999:00:08.000\nx\n",
            "WEBVTT\n\n00:00:05.000 --> 00:00:08.000\na <999999999999:00:00.000>b\n",
        ] {
            let outcome = try BuiltTool.run(["cues", "-", "--format", "vtt"], input: Array(text.utf8))
            #expect(endedCleanly(outcome), "\(outcome.status): \(outcome.stderr)")
        }
        let skipped = try BuiltTool.run(["cues", "-", "--format", "vtt"], input: Array("WEBVTT\n\n00:00:05.000 --> 99999999999:00:08.000\nx\n".utf8))
        #expect(skipped.stderr.contains("line 3"), "the skipped cue's line is named: \(skipped.stderr)")
    }

    @Test func hostileSCCTimecodesAreSkippedWithTheirLine() throws {
        let dir = try Fixtures.copyExample()
        try
            "Scenarist_SCC V1.0\n\n99999999999999:00:00:00\t9420 9420 94ae\n00:-1:00:00\t9420\n00:00:01:00\t9420 9420 94ae 94ae 9470 9470 c8e9 a180 942f 942f\n\n00:00:03:00\t942c 942c\n"
            .write(toFile: dir + "/subs/en.scc", atomically: true, encoding: .utf8)
        let outcome = try BuiltTool.run(["package", dir + "/master.m3u8", "--subtitle", "url=\(dir)/subs/en.scc,language=en", "--captions", "off"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("line 3") && outcome.stderr.contains("line 4"), "\(outcome.stderr)")
    }

    /// A TS segment whose PES header claims more than its packet holds, as the packager's caption
    /// scan and `captions --detect` read it.
    @Test func pesHeaderLongerThanItsPacket() throws {
        let file = Fixtures.path("fuzz/mpegts/pes-header-longer-than-packet.ts")
        for arguments in [["captions", "--detect", file], ["captions", file]] {
            let outcome = try BuiltTool.run(arguments)
            #expect(endedCleanly(outcome), "\(arguments): \(outcome.status) \(outcome.stderr)")
        }
        let dir = try Scratch.make().path
        try FileManager.default.copyItem(atPath: file, toPath: dir + "/seg.ts")
        try "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXTINF:4,\nseg.ts\n#EXT-X-ENDLIST\n".write(
            toFile: dir + "/prog.m3u8", atomically: true, encoding: .utf8)
        try "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\nprog.m3u8\n".write(toFile: dir + "/master.m3u8", atomically: true, encoding: .utf8)
        let outcome = try BuiltTool.run(["package", dir + "/master.m3u8"])
        #expect(endedCleanly(outcome), "\(outcome.status): \(outcome.stderr)")
    }

    /// A TTML file whose XML declaration runs into the markup after it, taking a processing
    /// instruction without data along (Foundation's XML parser reads that data as a C string and
    /// crashed the process): refused at the declaration's line, no signal.
    @Test func anUnclosedXMLDeclarationIsRefusedNotACrash() throws {
        let path = Fixtures.path("fuzz/ttml/crash-unclosed-declaration-swallows-a-pi-without-data.ttml")
        let outcome = try BuiltTool.run(["cues", path, "--format", "ttml"])
        #expect(outcome.status == 1, "\(outcome.status): \(outcome.stderr)")
        #expect(outcome.stderr.contains("line 1: the XML declaration (<?xml …) is not closed by ?>"), "\(outcome.stderr)")
    }

    /// fMP4 boxes with impossible sizes and times: errors with the file and byte offset.
    @Test(arguments: ["largesize-near-max.mp4", "empty-tkhd-mdhd.mp4", "tfdt-overflows-at-90khz.mp4", "trun-count-without-fields.mp4"])
    func hostileBoxes(_ name: String) throws {
        let bytes = try Fixtures.bytes("fuzz/isobmff/" + name)
        let length = Int(UInt32(bytes[0]) << 24 | UInt32(bytes[1]) << 16 | UInt32(bytes[2]) << 8 | UInt32(bytes[3]))
        let dir = try Scratch.make().path
        try Data(bytes[4..<(4 + length)]).write(to: URL(fileURLWithPath: dir + "/init.mp4"))
        try Data(bytes[(4 + length)...]).write(to: URL(fileURLWithPath: dir + "/seg.m4s"))
        try "#EXTM3U\n#EXT-X-VERSION:7\n#EXT-X-TARGETDURATION:4\n#EXT-X-MAP:URI=\"init.mp4\"\n#EXTINF:4,\nseg.m4s\n#EXT-X-ENDLIST\n".write(
            toFile: dir + "/prog.m3u8", atomically: true, encoding: .utf8)
        try "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1,RESOLUTION=320x180\nprog.m3u8\n".write(toFile: dir + "/master.m3u8", atomically: true, encoding: .utf8)
        try "1\n00:00:01,000 --> 00:00:02,000\nx\n".write(toFile: dir + "/en.srt", atomically: true, encoding: .utf8)
        let before = try FolderSnapshot(dir)
        let outcome = try BuiltTool.run(["package", dir + "/master.m3u8", "--subtitle", "url=\(dir)/en.srt,language=en"])
        #expect(outcome.status == 1, "\(outcome.status): \(outcome.stderr)")
        #expect(outcome.stderr.contains("byte offset"), "\(outcome.stderr)")
        #expect(before.differences(to: try FolderSnapshot(dir)) == [])
    }

    /// Playlist numbers beyond any clock, and definitions that would expand exponentially.
    @Test(arguments: ["byterange-overflow.m3u8", "sequence-near-max.m3u8", "extinf-sum-overflow.m3u8", "huge-target-duration.m3u8", "define-exponential.m3u8"])
    func hostilePlaylists(_ name: String) throws {
        let dir = try Scratch.make().path
        let text = try Fixtures.text("fuzz/m3u8/" + name)
        if text.contains("#EXT-X-STREAM-INF") {
            try text.write(toFile: dir + "/master.m3u8", atomically: true, encoding: .utf8)
        } else {
            try text.write(toFile: dir + "/prog.m3u8", atomically: true, encoding: .utf8)
            try "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\nprog.m3u8\n".write(toFile: dir + "/master.m3u8", atomically: true, encoding: .utf8)
        }
        let started = Date()
        let validated = try BuiltTool.run(["validate", dir + "/master.m3u8"])
        #expect(endedCleanly(validated), "validate \(name): \(validated.status) \(validated.stderr)")
        let packaged = try BuiltTool.run(["package", dir + "/master.m3u8", "--captions", "off", "--subtitle", "url=\(dir)/x.srt,language=en"])
        #expect(packaged.status == 1, "package \(name): \(packaged.status) \(packaged.stderr)")
        #expect(Date().timeIntervalSince(started) < 60, "no exponential work")
    }

    @Test func deviceAndFIFOInputsAreRefusedWithoutHanging() throws {
        let dir = try Fixtures.copyExample()
        let zero = try BuiltTool.run(["package", dir + "/master.m3u8", "--subtitle", "url=/dev/zero,language=en,format=srt"])
        #expect(zero.status == 1 && zero.stderr.contains("character device"), "\(zero.stderr)")
        let fifo = dir + "/fifo.m3u8"
        #expect(mkfifo(fifo, 0o644) == 0)
        let blocked = try BuiltTool.run(["package", fifo, "--subtitle", "url=\(dir)/subs/en.srt,language=en"])
        #expect(blocked.status == 1 && blocked.stderr.contains("FIFO"), "\(blocked.stderr)")
        let folder = try BuiltTool.run(["validate", dir + "/subs"])
        #expect(folder.status == 1 && folder.stderr.contains("folder") || folder.stdout.contains("folder"), "\(folder.stdout) \(folder.stderr)")
    }

    /// A symbolic link where Subweave writes: refused, naming the link, and nothing written through it.
    @Test(arguments: ["subtitles", "subtitles/en-en"])
    func symlinksInTheOutputAreRefused(_ linked: String) throws {
        let dir = try Fixtures.copyExample()
        let outside = try Scratch.make().path
        try "keep me".write(toFile: outside + "/00000.vtt", atomically: true, encoding: .utf8)
        if linked.contains("/") { try FileManager.default.createDirectory(atPath: dir + "/subtitles", withIntermediateDirectories: true) }
        try FileManager.default.createSymbolicLink(atPath: dir + "/" + linked, withDestinationPath: outside)
        let before = try FolderSnapshot(dir), outsideBefore = try FolderSnapshot(outside)
        let outcome = try BuiltTool.run(["package", dir + "/master.m3u8", "--subtitle", "url=\(dir)/subs/en.srt,language=en"])
        #expect(outcome.status == 1, "\(outcome.stderr)")
        #expect(outcome.stderr.contains(linked) && outcome.stderr.contains("symbolic link"), "\(outcome.stderr)")
        #expect(before.differences(to: try FolderSnapshot(dir)) == [])
        #expect(outsideBefore.differences(to: try FolderSnapshot(outside)) == [])
    }

    /// A packaged rendition moved elsewhere and reached through a link (the `subtitles` folder,
    /// or one generation): every command that would read, write or delete there refuses, naming
    /// the link, and neither folder changes (a file Subweave never wrote among them).
    @Test(arguments: ["subtitles", "generation"])
    func nothingIsDeletedThroughALink(_ which: String) throws {
        let dir = try Fixtures.copyExample()
        #expect(try BuiltTool.run(["package", dir + "/master.m3u8", "--subtitle", "url=\(dir)/subs/en.srt,language=en"]).status == 0)
        let outside = try Scratch.make().path
        let moved: String
        if which == "subtitles" {
            moved = dir + "/subtitles"
        } else {
            let generation = try Packaged.generation(master: dir + "/master.m3u8", folder: "subtitles/en-en")
            moved = generation
        }
        try FileManager.default.moveItem(atPath: moved, toPath: outside + "/moved")
        try "not Subweave's".write(toFile: outside + "/moved/notes.txt", atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: moved, withDestinationPath: outside + "/moved")
        let before = try FolderSnapshot(dir), outsideBefore = try FolderSnapshot(outside)
        for arguments in [
            ["remove", dir + "/master.m3u8", "--id", "en"], ["refresh", dir + "/master.m3u8"],
            ["package", dir + "/master.m3u8", "--replace", "--subtitle", "url=\(dir)/subs/fr.vtt,language=fr"],
        ] {
            let outcome = try BuiltTool.run(arguments)
            #expect(outcome.status == 1, "\(arguments[0]): \(outcome.stderr)")
            #expect(outcome.stderr.contains(moved) && outcome.stderr.contains("is a symbolic link"), "\(arguments[0]): \(outcome.stderr)")
            #expect(!outcome.stderr.contains("errno"), "\(outcome.stderr)")
        }
        #expect(before.differences(to: try FolderSnapshot(dir)) == [])
        #expect(outsideBefore.differences(to: try FolderSnapshot(outside)) == [])
    }

    /// An output folder that is itself a link (`current` → a release folder) is resolved once:
    /// package, list, refresh and remove work through it, and write into the release folder.
    @Test func anOutputFolderThatIsALinkWorks() throws {
        let release = try Fixtures.copyExample()
        let links = try Scratch.make().path
        let current = links + "/current"
        try FileManager.default.createSymbolicLink(atPath: current, withDestinationPath: release)
        let package = try BuiltTool.run(["package", current + "/master.m3u8", "--subtitle", "url=\(release)/subs/en.srt,language=en"])
        #expect(package.status == 0, "\(package.stderr)")
        #expect(FileManager.default.fileExists(atPath: release + "/subtitles/en-en"))
        let list = try BuiltTool.run(["list", current + "/master.m3u8"])
        #expect(list.status == 0 && list.stdout.contains("external:en:en"), "\(list.stdout) \(list.stderr)")
        #expect(try BuiltTool.run(["refresh", current + "/master.m3u8"]).status == 0)
        let remove = try BuiltTool.run(["remove", current + "/master.m3u8", "--id", "en"])
        #expect(remove.status == 0, "\(remove.stderr)")
        #expect(!(try String(contentsOfFile: release + "/master.m3u8", encoding: .utf8)).contains("subtitles/en-en"))
        var info = stat()
        #expect(lstat(current, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK, "the link itself is left alone")
    }

    @Test func refusedRunsWriteNothing() throws {
        let dir = try Fixtures.copyExample()
        let before = try FolderSnapshot(dir)
        let long = String(repeating: "x", count: 300)
        for arguments in [
            ["--subtitle", "url=\(dir)/subs/en.srt,language=en,id=\(long)"],
            ["--subtitle", "url=\(dir)/subs/en.srt,language=en", "--output", dir + "/subs"],
        ] {
            let outcome = try BuiltTool.run(["package", dir + "/master.m3u8"] + arguments)
            #expect(outcome.status == 1, "\(outcome.stderr)")
            #expect(before.differences(to: try FolderSnapshot(dir)) == [], "\(arguments)")
        }
        // A 240-character id is legal: its folder name fits in 255 bytes, its temporary names too.
        let legal = String(repeating: "y", count: 240)
        let outcome = try BuiltTool.run(["package", dir + "/master.m3u8", "--subtitle", "url=\(dir)/subs/en.srt,language=en,id=\(legal)"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
    }

    /// A run that has already staged some tracks' renditions (each is written as soon as it is
    /// segmented) and then fails on a later track leaves the folder exactly as it was: no staged
    /// file, no staging folder.
    @Test func aLaterTrackFailingRemovesWhatWasStaged() throws {
        let dir = try Fixtures.copyExample()
        let before = try FolderSnapshot(dir)
        var arguments = ["package", dir + "/master.m3u8"]
        for language in ["en", "de", "es", "it", "nl"] { arguments += ["--subtitle", "url=\(dir)/subs/en.srt,language=\(language),id=t-\(language)"] }
        arguments += ["--subtitle", "url=\(dir)/subs/missing.srt,language=pt"]
        let outcome = try BuiltTool.run(arguments)
        #expect(outcome.status == 1, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("missing.srt"), "\(outcome.stderr)")
        #expect(before.differences(to: try FolderSnapshot(dir)) == [], "\(outcome.stderr)")
    }

    /// A disk that fills up mid-run (simulated with a file-size limit, which fails writes the way
    /// ENOSPC does): the run fails, removes what it created, and leaves the master as it was.
    ///
    /// The subtitle file is made large (its kept cues, `cues.vtt`, about 6 MB) so that every
    /// limit below is smaller than a file the run must write: each run must fail, and one without
    /// a limit must succeed (the limit, not something else, is what fails them).
    @Test(arguments: [1, 16, 256, 2048])
    func aFullDiskLeavesTheFolderAsItWas(_ blocks: Int) throws {
        let dir = try Fixtures.copyExample()
        let binary = try #require(BuiltTool.subweave)
        let first = try BuiltTool.run(["package", dir + "/master.m3u8", "--subtitle", "url=\(dir)/subs/fr.vtt,language=fr"])
        #expect(first.status == 0)
        var big = ""
        for i in 0..<90_000 {
            let start = i * 2
            big += "\(i + 1)\n\(Self.srtTime(start)),000 --> \(Self.srtTime(start + 1)),500\nCue number \(i) with a line of text\nand a second one\n\n"
        }
        try big.write(toFile: dir + "/big.srt", atomically: true, encoding: .utf8)
        let before = try FolderSnapshot(dir)
        let script = "ulimit -f \"$4\"; exec \"$0\" package \"$1\" --subtitle \"url=$2,language=en\" --subtitle \"url=$3,language=fr,delay=0.5\""
        let outcome = try Tools.run("/bin/sh", ["-c", script, binary, dir + "/master.m3u8", dir + "/big.srt", dir + "/subs/fr.vtt", String(blocks)])
        #expect(outcome.status == 1, "a \(blocks)-block limit: \(outcome.status): \(outcome.stderr.suffix(300))")
        #expect(outcome.stderr.contains("cannot write") || outcome.stderr.contains("cannot create"), "\(outcome.stderr.suffix(300))")
        #expect(before.differences(to: try FolderSnapshot(dir)) == [], "\(outcome.stderr.suffix(300))")
        if blocks == 2048 {
            let unlimited = try Tools.run("/bin/sh", ["-c", script, binary, dir + "/master.m3u8", dir + "/big.srt", dir + "/subs/fr.vtt", "unlimited"])
            #expect(unlimited.status == 0, "without the limit the same run succeeds: \(unlimited.stderr.suffix(300))")
        }
    }

    static func srtTime(_ seconds: Int) -> String {
        String(format: "%02d:%02d:%02d", seconds / 3600, seconds / 60 % 60, seconds % 60)
    }

    @Test func messagesDoNotEchoEscapesOrOtherFilesContents() throws {
        let dir = try Scratch.make().path
        try "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\n/etc/passwd\n".write(toFile: dir + "/master.m3u8", atomically: true, encoding: .utf8)
        let outcome = try BuiltTool.run(["package", dir + "/master.m3u8", "--subtitle", "url=\(dir)/\u{1B}[31mred.srt,language=en"])
        #expect(outcome.status == 1)
        #expect(!outcome.stderr.contains("\u{1B}"), "no raw escape sequence")
        #expect(!outcome.stderr.contains("root:"), "no line of /etc/passwd")
        let passwd = try BuiltTool.run(["package", dir + "/master.m3u8", "--captions", "auto"])
        #expect(passwd.status == 1)
        #expect(!passwd.stderr.contains("root:"), "\(passwd.stderr)")
    }

    @Test func detectOnRandomBytesIsAnError() throws {
        let dir = try Scratch.make().path
        try Data((0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ 13) }).write(to: URL(fileURLWithPath: dir + "/random.ts"))
        let outcome = try BuiltTool.run(["captions", "--detect", dir + "/random.ts"])
        #expect(outcome.status == 1, "\(outcome.stdout) \(outcome.stderr)")
    }
}
