import Foundation
import Platform
import Timebase

/// Where a run that writes as it plans puts each rendition as soon as it is segmented: a folder
/// `.subweave-stage-<pid>` in the output folder, so that the run holds one track's cues at a time
/// however many tracks it packages.
///
/// Nothing in it is named by any playlist: the writer renames each staged generation into place
/// at commit (``OutputWriter``), before the master; a failed run removes the folder, and a killed
/// run's is removed by the next run on the folder, as every `.subweave-*` leftover is. Use it
/// holding the output folder's lock.
package struct RenditionStager: Sendable {
    /// The output folder, and the staging folder in it.
    let folder: String
    let root: String
    let confinement: Confinement?

    /// The staging folder's name in the output folder.
    static var name: String { FileSystem.temporaryPrefix + "stage-\(getpid())" }

    /// A staging folder in `folder`, or nil when `folder` is not (yet) a real folder: a run whose
    /// output folder is new keeps its renditions in memory until it commits.
    static func open(in folder: String, within confinement: Confinement? = nil) throws(SubweaveError) -> RenditionStager? {
        guard FileSystem.isRealFolder(folder) else { return nil }
        try onDisk(confinement?.check(folder: folder))
        let root = folder + "/" + name
        FileSystem.removeTree(root)
        guard FileSystem.makeFolder(root) else { throw SubweaveError(FileSystem.failure(root, "cannot create the staging folder")) }
        do throws(FileFailure) { try confinement?.check(folder: root) } catch {
            FileSystem.removeEmptyFolder(root)
            throw SubweaveError(error)
        }
        return RenditionStager(folder: folder, root: root, confinement: confinement)
    }

    /// Writes `rendition`'s files into the staging folder, unless its generation is already in
    /// place (the same bytes: its name is their hash); in `parts` parts at once, on as many
    /// cores, when it has at least ``segmentsPerPart`` segments a part.
    ///
    /// A rendition staged while fewer tracks than cores are left gets more than one
    /// (``parts(tracksLeft:)``): while as many tracks as cores or more are left, they already
    /// keep every core busy, and parts of one would only contend with the others (measured:
    /// splitting every rendition of 10 tracks was 4–8 % slower).
    func stage(_ rendition: SubtitleRendition, parts: Int = 1) throws(SubweaveError) -> PlannedRendition.Files {
        // Appended to in place, at commit (its published segments are never written again).
        if rendition.appending != nil { return PlannedRendition.files(of: rendition) }
        let names = rendition.fileNames
        if GenerationWrite(folder: rendition.folder, generation: rendition.generation, source: .inPlace, names: names).isComplete(below: folder) {
            return .inPlace
        }
        // Named by a hash of the folder, not the folder itself: a rendition folder may already be
        // as long as a file name can be.
        var name = ContentHash()
        name.add(rendition.folder)
        let path = root + "/" + name.hex() + "-" + rendition.generation
        // Its files made and written in `parts` parts at once (a large rendition's).
        let parts = max(1, min(parts, rendition.assignment.count / Self.segmentsPerPart))
        try onDisk { () throws(FileFailure) in
            try FileSystem.writeFolder(at: path, staging: path + ".partial", within: confinement, parts: parts) { part, emit throws(FileFailure) in
                try rendition.eachFile(part: part, of: parts, emit)
            }
        }
        return .staged(path: path, StagedGeneration(playlistText: rendition.playlistText, names: names))
    }

    /// The fewest segments a part of a rendition is written with (fewer are written on one core).
    static let segmentsPerPart = 64

    /// How many parts a rendition is written in when `tracksLeft` renditions, itself included,
    /// are still to be staged: the cores they leave idle, shared out (the last of a title's many
    /// tracks is split too, so that the cores the others leave as they finish take its parts).
    static func parts(tracksLeft: Int) -> Int { max(1, ProcessInfo.processInfo.activeProcessorCount / max(1, tracksLeft)) }

    /// Removes the staging folder and whatever is left in it.
    func remove() { FileSystem.removeTree(root) }
}
