import Foundation
import HLS
import Platform

extension Presentation {
    /// What a run does with what earlier runs and other tools left in the master: removes what
    /// the request names (and, with `replace`, every managed rendition it does not write again),
    /// segments the other managed renditions again from their kept cues, and retimes (or warns
    /// about) other tools' renditions without a timestamp map.
    ///
    /// A caption rendition an earlier run published goes when its service is no longer to be
    /// published (`settings` say so, or the whole programme was read and no longer carries it).
    func planEarlierRuns(
        _ request: PackageRequest, settings: EffectiveSettings, captions: ProgrammeCaptions, existing: [ExistingRendition], output: URL,
        planner: inout RenditionPlanner, warnings: inout [PackageWarning]
    ) async throws(SubweaveError) -> RemovalDecision {
        // A managed rendition reached through a link is neither read, refreshed nor removed.
        if let linked = existing.first(where: { $0.link != nil }), let link = linked.link {
            throw SubweaveError(FileSystem.linkRefused(link, root: masterURL.deletingLastPathComponent().path))
        }
        let writing = Set(planner.renditions.map(\.folder))
        var removal = try RemovalDecision.resolve(request.removals, force: request.forceRemoval, existing: existing, master: master, writing: writing)
        for e in existing where e.isManaged && !removal.lines.contains(e.rendition.lineIndex) {
            guard let place = e.place, !writing.contains(place.folder) else { continue }
            // Written again in another folder (the folder template changed): it takes this line.
            if let identity = e.identity, planner.moves(identity, replacing: e.rendition.lineIndex) { continue }
            if let reason = Self.unpublished(e, settings: settings, captions: captions) {
                removal.remove(e, in: master, reason: reason)
                warnings.append(PackageWarning(.captionRenditionRemoved, "\(e.identity ?? place.folder) was taken out: \(reason)"))
            } else if request.replace {
                removal.remove(e, in: master, reason: "removed by \(Setting.replace) (not among the tracks given)")
            } else if request.refreshExisting || output != masterURL {
                // A master written elsewhere needs every rendition beside it: always refreshed.
                if let kept = try await e.keptCues(self), let record = e.record {
                    planner.refresh(record, kept, folder: place.folder, replacing: e.rendition.lineIndex)
                } else {
                    warnings.append(
                        PackageWarning(
                            .notRefreshed,
                            "\(e.identity ?? place.folder) (\(e.describe(in: master))) was written by an earlier Subweave that kept no cues beside it, so it cannot be segmented again; package its track again to bring it up to date"
                        ))
                }
            }
        }
        for e in existing where !e.isManaged && !removal.lines.contains(e.rendition.lineIndex) && e.rendition.uri != nil {
            try await retimeOrWarn(e, request.retimeExisting, planner: &planner, warnings: &warnings)
        }
        return removal
    }

    /// Why a caption rendition an earlier run published is published no more, if it is not.
    static func unpublished(_ e: ExistingRendition, settings: EffectiveSettings, captions: ProgrammeCaptions) -> MessageText? {
        guard let service = e.record.flatMap({ RenditionIdentity.inBandService($0.identity) }) else { return nil }
        let name = service.rawValue
        // Captions off: left alone, as an earlier run made them (segmented again from their cues).
        if settings.captions == .off { return nil }
        if settings.closedCaptions == .inBand && service.isDeclarable { return "the captions are declared in-band instead (\(Setting.closedCaptionsInBand))" }
        if settings.captionServices[name]?.publish == false { return "\(name) is not to be published (\(Setting.captionService) \(name):publish=no)" }
        if captions.coverage.complete && captions.coverage.accessUnits > 0, !captions.services.contains(where: { $0.service.rawValue == name }) {
            return "the video no longer carries \(name) (the whole programme was read)"
        }
        return nil
    }

    /// Another tool's rendition: retimed when asked, else a warning when it has no map.
    ///
    /// Read for the warning only best-effort: another tool's unreadable rendition is not this
    /// run's failure.
    private func retimeOrWarn(_ e: ExistingRendition, _ retime: Bool, planner: inout RenditionPlanner, warnings: inout [PackageWarning])
        async throws(SubweaveError)
    {
        let found: RetimedRendition?
        if retime {
            found = try await RetimedRendition.read(e, presentation: self)
        } else {
            found = try? await RetimedRendition.read(e, presentation: self)
        }
        guard let retimed = found else { return }
        // Named for what it is, and left alone: not WebVTT text, nothing to write again.
        if let kind = retimed.notText {
            if !kind.isHLSSubtitleFormat {
                warnings.append(
                    PackageWarning(
                        .notHLSText,
                        "\(e.describe(in: master)) is \(kind.described), which HLS does not define for subtitles (WebVTT is text files: RFC 8216bis §3.1.4, Apple HLS Authoring Spec 5.3; hls.js does not play it); left as it is"
                    ))
            }
            return
        }
        warnings += retimed.skipped.map { PackageWarning(.media, "\(e.describe(in: master)): \($0)") }
        if retime {
            planner.retime(retimed)
        } else {
            warnings.append(
                PackageWarning(
                    .noTimestampMap,
                    "\(e.describe(in: master)) has no X-TIMESTAMP-MAP in its segments, so players disagree on when its cues show (hls.js shows them early by the first frame's time); \(Setting.retimeExisting) writes it again with a map"
                ))
        }
    }
}
