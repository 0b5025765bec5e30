import Foundation
import HLS
import Platform

extension FileSystem {
    /// Replaces `path` with the bytes of `playlist`, written in pieces (the text is never made
    /// whole), as ``replaceFile(at:with:temporaryName:)`` does.
    static func replaceFile(
        at path: String, with playlist: Playlist, temporaryName: String, within confinement: Confinement? = nil
    ) throws(FileFailure) {
        try replaceFile(at: path, temporaryName: temporaryName, within: confinement) { fd in
            struct Failed: Error {}
            do throws(Failed) {
                try playlist.write { (piece) throws(Failed) in if !writeAll(fd, piece) { throw Failed() } }
                return true
            } catch {
                return false
            }
        }
    }
}
