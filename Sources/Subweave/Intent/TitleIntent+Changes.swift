import Captions
import Foundation
import Platform
import Timebase

/// The settings a run works with: what the intent says, with the defaults for what it does not.
struct EffectiveSettings: Sendable, Equatable {
    /// nil: no preference.
    var preferredLanguage: LanguageTag?
    var closedCaptions: ClosedCaptionsRequest
    var captions: CaptionMode
    var captionPlacement: Bool
    var captionServices: CaptionServiceSettings
    /// The GROUP-ID of a SUBTITLES group Subweave makes; nil: `subs`.
    var subtitleGroup: String?
    /// The key file subtitles are encrypted with; nil: clear.
    var subtitleKeyFile: String?
    /// The format renditions are written in.
    var textFormat = SubtitleTextFormat.webVTT
    /// How segment files are named.
    var segmentNames = SegmentNameTemplate.standard

    /// Where side-loaded tracks' rendition folders go.
    var renditionFolder = RenditionFolderTemplate.standard

    /// The format and segment names together, as the writers take them.
    var naming: SegmentNaming { SegmentNaming(format: textFormat, template: segmentNames) }

    /// Whether `service` is published as a subtitle rendition: with captions on, unless in-band
    /// declarations are asked for (teletext pages, which HLS cannot declare in-band, always are).
    func makesRendition(of service: CaptionService) -> Bool { captions == .auto && (closedCaptions != .inBand || !service.isDeclarable) }
}

extension TitleIntent {
    /// The settings to run with: each said value, else its default.
    var settings: EffectiveSettings {
        var services = CaptionServiceSettings(defaultLanguage: captionLanguage.flatMap(LanguageTag.init(parsing:)))
        for (name, said) in captionServices {
            services.services[name] = CaptionServiceSetting(
                language: said.language.flatMap(LanguageTag.init(parsing:)), name: said.name, publish: said.publish)
        }
        let preferred = preferredLanguage.flatMap(LanguageTag.init(parsing:))
        return EffectiveSettings(
            preferredLanguage: preferred?.isUndetermined == true ? nil : preferred,
            closedCaptions: closedCaptions.flatMap(ClosedCaptionsRequest.init(rawValue:)) ?? .automatic,
            captions: captions.flatMap(CaptionMode.init(rawValue:)) ?? .auto, captionPlacement: captionPlacement ?? true,
            captionServices: services, subtitleGroup: subtitleGroup,
            subtitleKeyFile: encryptSubtitles == "none" ? nil : encryptSubtitles,
            textFormat: textFormat.flatMap(SubtitleTextFormat.init(label:)) ?? .webVTT,
            segmentNames: segmentNames.flatMap(SegmentNameTemplate.init) ?? .standard,
            renditionFolder: renditionFolder.flatMap(RenditionFolderTemplate.init) ?? .standard)
    }

    /// Every folder template the title's renditions may be in: the default, the one said, and
    /// those said before it (whose renditions a later run replaces or retires).
    var folderTemplates: [RenditionFolderTemplate] {
        ([RenditionFolderTemplate.standard] + ([renditionFolder].compactMap { $0 } + (earlierRenditionFolders ?? [])).compactMap(RenditionFolderTemplate.init))
    }

    /// Takes in what `request` says of the title's settings (a setting it leaves nil is not
    /// said, and keeps what was said before); returns what changed, for the report.
    mutating func applySettings(of request: PackageRequest) -> [MessageText] {
        var changes: [MessageText] = []
        func set<T: Equatable>(_ value: T?, _ current: inout T?, _ what: MessageText, _ show: (T?) -> String) {
            guard let value, value != current else { return }
            changes.append("\(what): \(show(current)) → \(show(value))")
            current = value
        }
        let shown: (String?) -> String = { $0 ?? "not said" }
        set(request.preferredLanguage.map(\.description), &preferredLanguage, "preferred language (\(Setting.preferredLanguage))") {
            $0 == "und" ? "none" : shown($0)
        }
        set(request.subtitleGroup, &subtitleGroup, "subtitle group (\(Setting.subtitleGroup))", shown)
        set(request.textFormat?.rawValue, &textFormat, "subtitle format (\(Setting.textFormat))", shown)
        set(request.segmentNames?.text, &segmentNames, "segment names (\(Setting.segmentNames))", shown)
        let earlierFolder = renditionFolder
        set(request.renditionFolder?.text, &renditionFolder, "rendition folders (\(Setting.renditionFolder))", shown)
        if let earlierFolder, earlierFolder != renditionFolder, !(earlierRenditionFolders ?? []).contains(earlierFolder) {
            earlierRenditionFolders = (earlierRenditionFolders ?? []) + [earlierFolder]
        }
        set(request.encryptSubtitles, &encryptSubtitles, "subtitle encryption key (\(Setting.encryptSubtitles))", shown)
        set(request.closedCaptions?.rawValue, &closedCaptions, "CLOSED-CAPTIONS", shown)
        set(request.captions?.rawValue, &captions, "captions", shown)
        set(request.captionPlacement, &captionPlacement, "caption placement") { $0.map { $0 ? "kept" : "none" } ?? "not said" }
        set(request.captionServices.defaultLanguage?.description, &captionLanguage, "caption language (\(Setting.captionLanguage))", shown)
        for name in request.captionServices.services.keys.sorted() {
            guard let said = request.captionServices.services[name] else { continue }
            var service = captionServices[name] ?? Service()
            let what: MessageText = "caption service \(name) (\(Setting.captionService))"
            set(said.language?.description, &service.language, "\(what) language", shown)
            set(said.name, &service.name, "\(what) name", shown)
            set(said.publish, &service.publish, "\(what) publish") { $0.map { $0 ? "yes" : "no" } ?? "not said" }
            captionServices[name] = service
        }
        return changes
    }

    /// Takes in the tracks a run writes (replacing those of the same identity), and drops those
    /// its removals took out; with `replacing`, the tracks given are the whole set.
    ///
    /// Returns what changed, and the tracks said earlier that the run dropped without naming
    /// them (`replace`): a warning, a failure under strict.
    mutating func applyTracks(_ written: [SubtitleTrack], removed: Set<String>, replacing: Bool) -> (changes: [MessageText], dropped: [String]) {
        var changes: [MessageText] = []
        var dropped: [String] = []
        let given = written.map(Track.init)
        let givenIdentities = Set(given.map(\.identity))
        var kept: [Track] = []
        for track in tracks {
            if givenIdentities.contains(track.identity) { continue }
            if removed.contains(track.identity) {
                changes.append("track \(track.identity): removed")
            } else if replacing {
                dropped.append(track.identity)
                changes.append("track \(track.identity): removed (\(Setting.replace))")
            } else {
                kept.append(track)
            }
        }
        for track in given {
            if let old = tracks.first(where: { $0.identity == track.identity }) {
                if old != track { changes.append("track \(track.identity): described again (\(old.url) → \(track.url))") }
            } else {
                changes.append("track \(track.identity): added")
            }
        }
        tracks = kept + given
        return (changes, dropped)
    }
}

extension TitleIntent {
    /// The record beside `output`, else beside `master`; nil when neither has one.
    ///
    /// A first run written elsewhere starts from the source title's record. A record that cannot be read is an
    /// error naming it: a run never forgets what was said by mistaking a damaged record for none.
    static func read(output: URL, master: URL, loader: ResourceLoader) throws(SubweaveError) -> TitleIntent? {
        for url in output == master ? [output] : [output, master] where url.isFileURL {
            let path = path(beside: url)
            guard FileSystem.exists(path) else { continue }
            let bytes: [UInt8]
            do { bytes = try ResourceLoader.readFile(path, limit: 16 << 20, kind: .playlist, within: loader.confinement) } catch {
                throw .unreadable(path: path, what: "the intent record", error)
            }
            do { return try JSONDecoder().decode(TitleIntent.self, from: Data(bytes)) } catch {
                throw .intentRecord(path: path, decoding: "\(error)")
            }
        }
        return nil
    }
}
