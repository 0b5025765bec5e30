import Foundation
import Timebase

/// A generation a run staged whole, as the run's fingerprint stands for it once in place.
///
/// Its playlist's bytes and the names of its files, taken as they were written, so that the end
/// of the run (``RunFingerprint/writtenPieces(_:master:)``) neither reads the playlist back nor
/// lists the folder.
package struct StagedGeneration: Sendable {
    var playlist = ContentHash()
    var names = FolderNames()
    /// Whether every file the playlist names is a plain name (``namesOnlyPlainFiles(_:)``).
    var plainNames = false

    /// The generation whose playlist's text is `playlistText` and whose files are `names`.
    package init(playlistText: String, names: [String]) {
        var text = playlistText
        text.withUTF8 { playlist.add(UnsafeRawBufferPointer($0)) }
        for name in names { self.names.add(name) }
        plainNames = Self.namesOnlyPlainFiles(text.utf8)
    }

    /// The names of a folder's files, hashed in any order: a folder lists them in an order of
    /// its own, and the run that wrote them knows them in another.
    package struct FolderNames: Sendable, CustomStringConvertible {
        private var count = 0
        private var sum: UInt64 = 0

        package init() {}

        /// Counts `name` in.
        package mutating func add(_ name: String) {
            var hash = ContentHash()
            hash.add(name)
            // Mixed (SplitMix64's finaliser) before the sum, so that names alike do not sum alike.
            var mixed = hash.digest
            mixed = (mixed ^ (mixed >> 30)) &* 0xbf58_476d_1ce4_e5b9
            mixed = (mixed ^ (mixed >> 27)) &* 0x94d0_49bb_1331_11eb
            sum &+= mixed ^ (mixed >> 31)
            count += 1
        }

        package var description: String { "\(count) names \(String(sum, radix: 16))" }
    }

    /// Whether every URI line of a playlist, and every `EXT-X-MAP` URI, is a plain file name
    /// (``MediaReader/LocalPaths/isPlainFileName(_:)``): a line that refers to a variable is not.
    ///
    /// One pass over the bytes, a line at a time (a playlist of thousands of segments makes no
    /// string per line).
    package static func namesOnlyPlainFiles(_ bytes: some Collection<UInt8>) -> Bool {
        let plain =
            bytes.withContiguousStorageIfAvailable { namesOnlyPlainFiles(in: $0) } ?? Array(bytes).withUnsafeBufferPointer { namesOnlyPlainFiles(in: $0) }
        return plain
    }

    private static func namesOnlyPlainFiles(in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var start = 0
        while start < bytes.count {
            var end = start
            while end < bytes.count, bytes[end] != 0x0A { end += 1 }
            var line = bytes[start..<end]
            start = end + 1
            if line.last == 0x0D { line = line.dropLast() }
            if line.isEmpty { continue }
            guard line.first == UInt8(ascii: "#") else {
                guard MediaReader.LocalPaths.isPlainFileName(bytes: line) else { return false }
                continue
            }
            // A variable reference ({$NAME}) anywhere: the names are not what they look like.
            var i = line.startIndex
            while i < line.endIndex - 1 {
                if bytes[i] == UInt8(ascii: "{") && bytes[i + 1] == UInt8(ascii: "$") { return false }
                i += 1
            }
            guard Self.isMapTag(line) else { continue }
            let text = String(decoding: line, as: UTF8.self)
            let value = text.split(separator: "URI=\"", maxSplits: 1).dropFirst().first?.split(separator: "\"", maxSplits: 1).first
            guard let value, MediaReader.LocalPaths.isPlainFileName(String(value)) else { return false }
        }
        return true
    }

    /// Whether `line` starts with `#EXT-X-MAP:`.
    private static func isMapTag(_ line: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        let tag: StaticString = "#EXT-X-MAP:"
        guard line.count >= tag.utf8CodeUnitCount else { return false }
        return tag.withUTF8Buffer { tag in
            var i = 0
            while i < tag.count, line[line.startIndex + i] == tag[i] { i += 1 }
            return i == tag.count
        }
    }
}
