import Foundation
import HLS

/// Everything a run will write, decided and not yet written: a value to inspect (a dry run is a
/// plan not applied) and to hand to ``Packager/apply(_:)``.
public struct PackagePlan: Sendable {
    /// The master the plan was made from, and its bytes then.
    public let masterURL: URL
    let masterBytes: [UInt8]
    /// Where the new master goes.
    public let output: URL
    /// The new master, written in pieces when the plan is applied.
    let master: Playlist
    /// The new master's text (made when asked for: the plan keeps the lines, not the text).
    public var masterText: String { master.text }
    /// Once the plan is written (``Packager/run(master:_:)``), the digest of the master as the
    /// run left it; nil for a plan not written.
    package internal(set) var writtenMaster: WrittenDigest?

    /// Hands the new master's bytes to `sink` in pieces of at most about 1 MiB, without making
    /// its text whole.
    public func writeMasterText(_ sink: (UnsafeBufferPointer<UInt8>) -> Void) { master.write(sink) }
    /// The renditions, each with its files (made when written, or already staged).
    package let renditions: [PlannedRendition]
    /// The report of the run.
    public internal(set) var report: PackageReport
    /// Folders of renditions Subweave manages in this presentation (old and new), relative to the
    /// output folder.
    let managedFolders: Set<String>
    /// For each managed folder, the generation the new master names.
    let named: [String: String]
    /// For each managed folder, the generation the old master named ("" for the layout before generations).
    let previous: [String: String]
    /// Managed folders whose renditions the run removes.
    let removedFolders: Set<String>
    /// What the operator has said of the title, written beside the new master before it.
    public let intent: TitleIntent
    /// The in-band captions this run read, kept beside the master once it is written (nil when
    /// an earlier run's record answered, or the media is not all local).
    let captionRecord: CaptionRecordToKeep?

    /// Every path the plan writes, relative to the output folder.
    public var files: [String] {
        renditions.flatMap(\.paths) + [TitleIntent.fileName(forMaster: output.lastPathComponent), output.lastPathComponent]
    }
}
