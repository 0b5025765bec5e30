import Captions
import Foundation
import Timebase
import TimedText

/// A caption file side-loaded as a track (MCC): every service with text becomes a rendition of
/// its own, as the services of in-band captions do.
enum CaptionFileTracks {
    /// `tracks` with each MCC track that names no service (`service=`) made into one track per
    /// service its file carries with text: id `<id>-<service>` (`vendor-cc1`), the service's
    /// `--caption-service` language and name when said (else the track's language, and its name or
    /// the language's English name, with the service: "English (CC1)"), left out under
    /// `publish=no`.
    ///
    /// A file that cannot be read, or has one service or none, stays one track: reading it says
    /// what is wrong, and a single service needs no split.
    static func expanding(_ tracks: [SubtitleTrack], services settings: CaptionServiceSettings, loader: ResourceLoader) async -> [SubtitleTrack] {
        var result: [SubtitleTrack] = []
        for track in tracks {
            guard track.format == .mcc, track.service == nil, let bytes = try? await loader.read(track.source.url, kind: .subtitle),
                let read = try? MCCReader.read(String(decoding: bytes, as: UTF8.self), rate: track.fps), read.services.count > 1
            else {
                result.append(track)
                continue
            }
            for (service, _) in read.services {
                let said = settings[service.rawValue]
                if said?.publish == false { continue }
                result.append(split(track, service: service, said: said))
            }
        }
        return result
    }

    /// The track of one service of `track`'s file.
    static func split(_ track: SubtitleTrack, service: CaptionService, said: CaptionServiceSetting?) -> SubtitleTrack {
        let language = said?.language ?? track.language
        let base = track.labelIsDerived ? (language.englishName ?? language.description) : track.label
        let name = said?.name ?? "\(base) (\(service.rawValue))"
        guard
            var split = try? SubtitleTrack(
                source: track.source, id: "\(track.sourceID)-\(service.rawValue.lowercased())", language: language, name: name,
                format: track.declaredFormat ?? .mcc, isForced: track.isForced, isSDH: track.isSDH, isDefault: track.isDefault,
                delay: track.delay, offset: track.offset, encoding: track.encoding, rate: track.rate,
                characteristics: track.characteristics)
        else {
            var kept = track
            kept.service = service
            return kept
        }
        split.fps = track.fps
        split.service = service
        return split
    }
}
