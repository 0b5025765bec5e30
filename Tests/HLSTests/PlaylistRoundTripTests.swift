import Foundation
import HLS
import TestSupport
import Testing

/// Parsing and writing back without a change is byte-identical, whatever the playlist does.
struct PlaylistRoundTripTests {
    static let oddities: [SourceRow<String>] = [
        SourceRow("#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-STREAM-INF:BANDWIDTH=1\na.m3u8\n"),
        SourceRow("#EXTM3U\r\n#EXT-X-STREAM-INF:BANDWIDTH=1\r\na.m3u8\r\n"),  // CRLF
        SourceRow("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\na.m3u8"),  // no final newline
        SourceRow("\u{FEFF}#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\na.m3u8\n"),  // BOM
        SourceRow("#EXTM3U\n\n\n# comment\n#EXT-UNKNOWN-TAG\n#EXT-X-STREAM-INF:CODECS=\"a,b\",BANDWIDTH=1, RESOLUTION=1x1\n\n a.m3u8 \n"),
        SourceRow("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\r\na.m3u8\n#EXT-X-STREAM-INF:BANDWIDTH=2\nb.m3u8\r\n"),  // mixed endings
    ]

    @Test func oddPlaylistsRoundTrip() throws {
        for row in Self.oddities {
            let playlist = try Playlist(parsing: Array(row.value.utf8), source: "t")
            #expect(Array(playlist.text.utf8) == Array(row.value.utf8), "line \(row.line)")
        }
    }

    @Test func complexFixtureRoundTrips() throws {
        let bytes = try Fixtures.bytes("media/ts-bframes/complex.m3u8")
        let master = try MasterPlaylist(parsing: bytes, source: "complex.m3u8")
        #expect(Array(master.playlist.text.utf8) == bytes)
        #expect(master.variants.count == 2)
        #expect(master.renditions.map(\.type) == [.audio, .subtitles])
        #expect(master.iFrameStreams.count == 1)
    }

    @Test func notAPlaylistNamesLineOne() {
        #expect(
            throws: HLSError(
                .notAPlaylist, source: "x.m3u8", line: 1,
                "expected #EXTM3U on the first line (RFC 8216bis §4.4.1.1), found a first line of 6 characters that is not #EXTM3U; this is not an M3U8 playlist"
            )
        ) {
            try Playlist(parsing: Array("<html>\n".utf8), source: "x.m3u8")
        }
    }

    @Test func invalidUTF8NamesTheByte() {
        var bytes = Array("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\n".utf8)
        let offset = bytes.count
        bytes += [0xC3, 0x28] + Array("a.m3u8\n".utf8)
        do {
            _ = try Playlist(parsing: bytes, source: "m")
            Issue.record("expected an error")
        } catch {
            #expect(error.code == .notUTF8)
            #expect(error.reason.contains("byte offset \(offset)"))
        }
    }

    @Test func mediaPlaylistIsNotAMaster() {
        #expect(throws: HLSError.self) {
            try MasterPlaylist(parsing: Array("#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXTINF:4,\na.ts\n".utf8), source: "m")
        }
    }
}

struct AttributeListTests {
    @Test func quotedCommasAndOrder() throws {
        let list = try AttributeList(parsing: #"BANDWIDTH=1280000,CODECS="avc1.4d401f,mp4a.40.2",RESOLUTION=640x360,X-CUSTOM="a=b""#)
        #expect(list.attributes.map(\.name) == ["BANDWIDTH", "CODECS", "RESOLUTION", "X-CUSTOM"])
        #expect(list["CODECS"]?.unquoted == "avc1.4d401f,mp4a.40.2")
        #expect(list["CODECS"]?.isQuoted == true)
        #expect(list["X-CUSTOM"]?.unquoted == "a=b")
        #expect(list.text == #"BANDWIDTH=1280000,CODECS="avc1.4d401f,mp4a.40.2",RESOLUTION=640x360,X-CUSTOM="a=b""#)
    }

    @Test func malformedListsAreErrors() {
        #expect(throws: AttributeListError.self) { try AttributeList(parsing: #"NAME="unterminated"#) }
        #expect(throws: AttributeListError.self) { try AttributeList(parsing: #"NOVALUE,BANDWIDTH=1"#) }
        #expect(throws: AttributeListError.self) { try AttributeList(parsing: #"NAME="a"b"#) }
    }

    @Test func duplicatesAreReported() throws {
        #expect(try AttributeList(parsing: "A=1,B=2,A=3").duplicateNames == ["A"])
    }

    @Test func newAttributesGoWhereTheSpecOrdersThem() throws {
        var list = try AttributeList(parsing: #"BANDWIDTH=1,CODECS="x",AUDIO="a",X-VENDOR=1"#)
        list.set("SUBTITLES", .quoted("subs"), order: AttributeOrder.streamInf)
        list.set("CLOSED-CAPTIONS", .enumerated("NONE"), order: AttributeOrder.streamInf)
        list.set("RESOLUTION", .enumerated("1x1"), order: AttributeOrder.streamInf)
        #expect(list.text == #"BANDWIDTH=1,CODECS="x",RESOLUTION=1x1,AUDIO="a",SUBTITLES="subs",CLOSED-CAPTIONS=NONE,X-VENDOR=1"#)
        // Setting an existing attribute keeps its place and never duplicates it.
        list.set("CLOSED-CAPTIONS", .enumerated("NONE"), order: AttributeOrder.streamInf)
        list.set("BANDWIDTH", .integer(2), order: AttributeOrder.streamInf)
        #expect(list.text == #"BANDWIDTH=2,CODECS="x",RESOLUTION=1x1,AUDIO="a",SUBTITLES="subs",CLOSED-CAPTIONS=NONE,X-VENDOR=1"#)
    }
}

struct MediaPlaylistTests {
    @Test func readsTheTimeline() throws {
        let text = """
            #EXTM3U
            #EXT-X-VERSION:4
            #EXT-X-TARGETDURATION:6
            #EXT-X-MEDIA-SEQUENCE:100
            #EXT-X-DISCONTINUITY-SEQUENCE:7
            #EXT-X-PLAYLIST-TYPE:VOD
            #EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00.000Z
            #EXTINF:6.006,title
            #EXT-X-BYTERANGE:1000@0
            all.ts
            #EXTINF:6.006,
            #EXT-X-BYTERANGE:500
            all.ts
            #EXT-X-DISCONTINUITY
            #EXTINF:3,
            b.ts
            #EXT-X-ENDLIST

            """
        let playlist = try MediaPlaylist(parsing: Array(text.utf8), source: "p")
        #expect(playlist.targetDuration == 6)
        #expect(playlist.mediaSequence == 100)
        #expect(playlist.discontinuitySequence == 7)
        #expect(playlist.playlistType == .vod)
        #expect(playlist.hasEndList)
        #expect(playlist.segments.map(\.discontinuitySequence) == [7, 7, 8])
        #expect(playlist.segments.map(\.start.ticks) == [0, 540_540, 1_081_080])
        #expect(playlist.segments[1].byteRange == ByteRange(length: 500, offset: 1000))
        #expect(playlist.segments[0].programDateTime == "2026-01-01T00:00:00.000Z")
        #expect(playlist.segments[0].durationText == "6.006")
        #expect(playlist.duration.ticks == 1_351_080)
    }

    /// An `#EXTINF` duration ends at the comma byte, whatever the title after it starts with (a
    /// combining mark, which joins the comma into one character); spaces, tabs and a carriage
    /// return before the comma or the line end are not part of it.
    @Test func anExtinfDurationEndsAtItsComma() throws {
        for (line, text) in [
            ("#EXTINF:6.006,\u{301}title", "6.006"), ("#EXTINF:4 \t,x", "4"), ("#EXTINF:2.5\r", "2.5"), ("#EXTINF:3,a,b", "3"),
            ("#EXTINF:1.5, \u{600}", "1.5"),
        ] {
            let playlist = try MediaPlaylist(parsing: Array("#EXTM3U\n#EXT-X-TARGETDURATION:6\n\(line)\na.ts\n#EXT-X-ENDLIST\n".utf8), source: "p")
            #expect(playlist.segments.first?.durationText == text, "\(line.debugDescription)")
        }
        #expect(throws: HLSError.self) { try MediaPlaylist(parsing: Array("#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:\u{600} 6,\na.ts\n".utf8), source: "p") }
    }

    @Test func mirrorPlaylistRepeatsTheShape() throws {
        let text =
            "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXT-X-MEDIA-SEQUENCE:3\n#EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00Z\n#EXTINF:4.000,\na.ts\n#EXT-X-DISCONTINUITY\n#EXTINF:2.5,\nb.ts\n"
        let reference = try MediaPlaylist(parsing: Array(text.utf8), source: "p")
        let mirror = SubtitlePlaylistWriter.text(mirroring: reference, segmentURIs: ["0.vtt", "1.vtt"])
        #expect(
            mirror
                == "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:4\n#EXT-X-MEDIA-SEQUENCE:3\n#EXT-X-DISCONTINUITY-SEQUENCE:0\n#EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00Z\n#EXTINF:4.000,\n0.vtt\n#EXT-X-DISCONTINUITY\n#EXTINF:2.5,\n1.vtt\n"
        )
    }

    @Test func errorsNameTheLine() {
        do {
            _ = try MediaPlaylist(parsing: Array("#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXTINF:abc,\na.ts\n".utf8), source: "p.m3u8")
            Issue.record("expected an error")
        } catch {
            #expect(error.line == 3)
            #expect(error.description.hasPrefix("p.m3u8:3: #EXTINF needs a duration"))
        }
        #expect(throws: HLSError.self) { try MediaPlaylist(parsing: Array("#EXTM3U\n#EXTINF:4,\na.ts\n".utf8), source: "p") }
        #expect(throws: HLSError.self) { try MediaPlaylist(parsing: Array("#EXTM3U\n#EXT-X-TARGETDURATION:4\na.ts\n".utf8), source: "p") }
    }
}
