import Captions
import Foundation
import Pictures
import Timebase
import TimedText

/// A DVB subtitle picture of a live stream, as the follow knows it from pass to pass.
struct PictureKey: Hashable {
    let start: MediaTime
    let offset: Int
}

/// What OCR read in a picture: its cue's text and placement, or nothing (no text).
struct PictureText {
    let cue: Cue?
}

extension LiveSession {
    /// The cues of a DVB subtitle stream's pictures so far: each picture read by OCR once, in the
    /// stream's language (``CaptionScanner/pictureLanguage(_:declared:settings:)``), its cue ending
    /// with the picture, or at `openUntil` while it is still shown (nil: not yet a cue).
    mutating func pictureCues(_ service: CaptionService, _ pictures: [SubtitlePicture], openUntil: MediaTime?) async -> [Cue] {
        var known = pictureText[service] ?? [:]
        let unread = pictures.indices.filter {
            known[PictureKey(start: pictures[$0].start, offset: pictures[$0].offset)] == nil && !pictures[$0].indices.isEmpty
        }
        if !unread.isEmpty && !unreadPictureStreams.contains(service) {
            let (language, said) = CaptionScanner.pictureLanguage(service, declared: captionLanguages, settings: settings.captionServices)
            if let said, known.isEmpty { note(said) }
            let (read, notes) = await CaptionScanner.recognise(service, unread.map { pictures[$0] }, in: language)
            for text in notes { note(text) }
            if let read {
                var cueOf: [Int: Cue] = [:]
                for (cue, index) in zip(read.cues, read.pictures) { cueOf[unread[index]] = cue }
                for index in unread {
                    known[PictureKey(start: pictures[index].start, offset: pictures[index].offset)] = PictureText(cue: cueOf[index])
                }
            } else {
                unreadPictureStreams.insert(service)
            }
        }
        pictureText[service] = known
        return pictures.compactMap { picture in
            guard var cue = known[PictureKey(start: picture.start, offset: picture.offset)]?.cue, let end = picture.end ?? openUntil, end > cue.start
            else { return nil }
            cue.end = end
            return cue
        }
    }
}
