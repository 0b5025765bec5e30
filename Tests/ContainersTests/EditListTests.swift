import Testing

@testable import Containers

/// Edit lists as the players measured apply them (Chromium's MSE under hls.js): one entry that
/// is not empty moves presentation to its media time; longer lists are ignored, and said when
/// that changes anything (see BrowserPlaybackTests.editListsPlayInSync for the players' clocks).
struct EditListTests {
    func track(_ edits: [(UInt64, Int64)], timescale: UInt32 = 90_000, movie: UInt32 = 1_000) -> ISOBMFF.Track {
        var track = ISOBMFF.Track(
            trackID: 1, timescale: timescale, handler: "vide", sampleEntry: "avc1", nalLengthSize: 4, defaults: ISOBMFF.SampleDefaults())
        track.edits = edits.map { (duration: $0.0, mediaTime: $0.1) }
        track.movieTimescale = movie
        return track
    }

    @Test func theMp4MuxersSingleEditIsApplied() {
        // ffmpeg's mp4 muxer with B-frames: [(0, 6006)] at 90 kHz, two frames of 29.97.
        #expect(track([(0, 6006)]).presentationShift == 6006)
        #expect(track([(0, 6006)]).ignoredEdits == nil)
    }

    @Test func theHlsMuxersEditsCancelOutAndAreIgnoredSilently() {
        // ffmpeg's hls muxer: 66 ms empty, then media from 2002 at 30 kHz (66.7 ms).
        let hls = track([(66, -1), (0, 2002)], timescale: 30_000)
        #expect(hls.presentationShift == 0)
        #expect(hls.ignoredEdits == nil, "they cancel out within a millisecond")
    }

    @Test func aLongEmptyEditIsIgnoredAndSaid() {
        // -itsoffset 10: 10 s empty, then media from two frames.
        let offset = track([(10_000, -1), (0, 6006)])
        #expect(offset.presentationShift == 0)
        #expect(offset.ignoredEdits?.contains("9.933 s later") == true, "\(offset.ignoredEdits ?? "")")
    }

    @Test func noEditOrAnEmptyOnlyEditMovesNothing() {
        #expect(track([]).presentationShift == 0)
        #expect(track([(5_000, -1)]).presentationShift == 0)
    }

    @Test func samplesArePresentedLessTheShift() {
        let sample = ISOBMFF.FragmentSample(trackID: 1, fragment: 0, decodeTime: 0, compositionOffset: 6006, duration: 3003, offset: 0, size: 0)
        var shifted = sample
        shifted.editShift = 6006
        #expect(sample.presentationTime == 6006 && shifted.presentationTime == 0)
    }
}
