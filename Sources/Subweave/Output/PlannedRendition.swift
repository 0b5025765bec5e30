import Platform
import Timebase

/// A rendition as a plan holds it: where it goes, what the report says of it, and its files,
/// still to be made from its cues or already made in the run's staging folder.
///
/// A run that writes as it plans (``Packager/run(master:_:)``) stages each track's rendition as
/// soon as it is segmented and keeps only this description, so its memory does not grow with the
/// number of tracks; a plan made to be inspected or applied later keeps the cues.
package struct PlannedRendition: Sendable {
    /// Where the rendition's files are.
    package enum Files: Sendable {
        /// To be made from the rendition's cues when written.
        case pending(SubtitleRendition)
        /// Made, in a folder of the run's staging area, to be renamed into place; what the
        /// run's fingerprint takes of it.
        case staged(path: String, StagedGeneration)
        /// The generation is already in place: its name is the hash of its bytes.
        case inPlace
        /// New files of a published generation of an open programme (``PublishedRendition``).
        case appending(SubtitleRendition)
    }

    /// The rendition's folder, relative to the master (``RenditionLayout/folder(for:)``).
    package let folder: String
    /// The generation: 12 hexadecimal digits of the hash of the files' content.
    package let generation: String
    /// The playlist's path relative to the master (also its `URI`).
    package let playlistPath: String
    /// How many segments the rendition has, and whether a record is kept beside them.
    let segmentCount: Int
    let hasRecord: Bool
    let naming: SegmentNaming
    /// How many cues the rendition carries, and when the first starts.
    package let cueCount: Int
    package let firstCueStart: MediaTime?
    package let files: Files

    /// `rendition`, its files where `files` says.
    package init(_ rendition: SubtitleRendition, files: Files) {
        folder = rendition.folder
        generation = rendition.generation
        playlistPath = rendition.playlistPath
        segmentCount = rendition.timeline.playlist.segments.count
        hasRecord = rendition.record != nil
        naming = rendition.naming
        cueCount = rendition.cues.count
        firstCueStart = rendition.cues.first?.start
        self.files = files
    }

    /// `rendition`, its files to be made when written (appended to its published generation,
    /// when it has one).
    package init(_ rendition: SubtitleRendition) { self.init(rendition, files: Self.files(of: rendition)) }

    /// Where the files of a rendition not staged come from.
    static func files(of rendition: SubtitleRendition) -> Files {
        guard rendition.appending != nil else { return .pending(rendition) }
        return rendition.appendsNothing ? .inPlace : .appending(rendition)
    }

    /// Every file the generation holds, relative to the master.
    package var paths: [String] {
        RenditionLayout.paths(folder: folder, generation: generation, segments: segmentCount, record: hasRecord, naming: naming)
    }

    /// What the writer does with it.
    var write: GenerationWrite {
        let names = RenditionLayout.names(segments: segmentCount, record: hasRecord, naming: naming)
        switch files {
        case .pending(let rendition): return GenerationWrite(folder: folder, generation: generation, rendition: rendition, names: names)
        case .staged(let path, _): return GenerationWrite(folder: folder, generation: generation, source: .staged(path: path), names: names)
        case .inPlace: return GenerationWrite(folder: folder, generation: generation, source: .inPlace, names: names)
        case .appending(let rendition):
            return GenerationWrite(
                folder: folder, generation: generation, source: .append({ emit throws(FileFailure) in try rendition.eachFile(emit) }), names: names)
        }
    }
}
