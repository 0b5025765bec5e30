import Foundation
import Platform

/// One rendition generation to put on disk.
package struct GenerationWrite: Sendable {
    /// Where the generation's files come from.
    package enum Source: Sendable {
        /// Made, one file at a time, when a worker reaches this rendition.
        case files(FileSystem.FileMaker)
        /// Already written into a staging folder (``RenditionStager``), renamed into place.
        case staged(path: String)
        /// Already in place when the run planned it (its name is the hash of its bytes).
        case inPlace
        /// New files of a published generation (an open programme), each written into it in
        /// place: its new segments first, then its playlist.
        case append(FileSystem.FileMaker)
    }

    /// The rendition's folder, relative to the output folder (`subtitles/en-en`).
    package let folder: String
    /// The generation's name (``RenditionLayout/isGeneration(_:)``).
    package let generation: String
    package let source: Source
    /// The names of the files the generation holds (empty when not known: it is then taken as
    /// complete when its folder exists).
    package var names: [String] = []

    package init(folder: String, generation: String, source: Source, names: [String] = []) {
        self.folder = folder
        self.generation = generation
        self.source = source
        self.names = names
    }

    /// A generation whose files `rendition` makes when it is written.
    package init(folder: String, generation: String, rendition: SubtitleRendition, names: [String] = []) {
        self.init(folder: folder, generation: generation, source: .files({ emit throws(FileFailure) in try rendition.eachFile(emit) }), names: names)
    }

    /// Whether the generation's folder under `root` exists and holds every file it should.
    func isComplete(below root: String) -> Bool {
        let target = root + "/" + folder + "/" + generation
        return FileSystem.isRealFolder(target) && missing(in: target).isEmpty
    }

    /// The names of the generation's files that are not regular files in `target`.
    func missing(in target: String) -> Set<String> {
        Set(
            names.filter { name in FileSystem.Occupant(target + "/" + name) != .regularFile })
    }

    /// Writes the files the existing generation folder under `root` lacks, each through a
    /// temporary file renamed into place (the others, the same bytes, are left alone).
    func fillIn(below root: String, within confinement: Confinement?) throws(SubweaveError) {
        let target = root + "/" + folder + "/" + generation
        let missing = missing(in: target)
        guard !missing.isEmpty else { return }
        switch source {
        case .files(let make), .append(let make):
            try onDisk { () throws(FileFailure) in
                try make { name, content throws(FileFailure) in
                    guard missing.contains(name) else { return }
                    try FileSystem.replaceFile(
                        at: target + "/" + name, with: content, temporaryName: FileSystem.temporaryPrefix + "fill-" + name, within: confinement)
                }
            }
        case .staged(let path):
            for name in missing.sorted() {
                try onDisk(FileSystem.move(path + "/" + name, to: target + "/" + name, "cannot move the staged file into place"))
            }
        case .inPlace:
            throw .fileSystem(
                FileProblem(path: target, operation: "the rendition was complete when the run planned it and has lost files since; nothing was changed"))
        }
    }
}
