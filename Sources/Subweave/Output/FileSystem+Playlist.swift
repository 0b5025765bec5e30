import Foundation
import HLS
import Platform

extension FileSystem {
    /// Replaces `path` with the bytes of `playlist`, written in pieces (the text is never made
    /// whole), as ``replaceFile(at:with:temporaryName:)`` does; returns the digest of what it
    /// wrote.
    @discardableResult
    static func replaceFile(
        at path: String, with playlist: Playlist, temporaryName: String, within confinement: Confinement? = nil
    ) throws(FileFailure) -> WrittenDigest {
        var digest = WrittenDigest()
        try replaceFile(at: path, temporaryName: temporaryName, within: confinement) { fd in
            struct Failed: Error {}
            do throws(Failed) {
                try playlist.write { (piece) throws(Failed) in
                    digest.add(piece)
                    if !writeAll(fd, piece) { throw Failed() }
                }
                return true
            } catch {
                return false
            }
        }
        return digest
    }
}

/// The length and hash of bytes written, to know later whether a file still holds them without
/// keeping them (a master of 200,000 variants is tens of megabytes).
package struct WrittenDigest: Sendable, Equatable {
    package private(set) var count = 0
    private var hash = ContentHash()

    package init() {}

    /// The digest of `bytes`.
    package init(of bytes: [UInt8]) {
        count = bytes.count
        hash.add(bytes)
    }

    /// Adds the next bytes written.
    package mutating func add(_ piece: UnsafeBufferPointer<UInt8>) {
        count += piece.count
        hash.add(UnsafeRawBufferPointer(piece))
    }
}
