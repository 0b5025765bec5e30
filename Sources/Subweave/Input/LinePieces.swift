import Foundation
import Platform

/// A local file read a piece at a time, each piece but the last ending with a line break, so that
/// a parser can read its lines without the whole file in memory.
///
/// A piece ends after an LF, or after a CR whose next byte is read and is not LF (a CRLF is never
/// split); a line longer than a piece makes its piece longer. The file is checked as
/// ``ResourceLoader/readFile(_:limit:kind:)`` checks it: a regular file, at most `limit` bytes.
package struct LinePieces: Sendable {
    package let path: String
    package let limit: Int
    package let kind: ResourceKind
    /// How many bytes are read at a time (a piece is at most this long unless a line is longer).
    package var readSize: Int

    /// The file at `path`, read `readSize` bytes at a time.
    package init(path: String, limit: Int, kind: ResourceKind = .subtitle, readSize: Int = 1 << 20) {
        self.path = path
        self.limit = limit
        self.kind = kind
        self.readSize = max(readSize, 1)
    }

    /// Calls `body` with each piece in order, then with the rest of the file (maybe empty) and
    /// `isLast` true; returns the file's size in bytes.
    @discardableResult
    package func forEach(_ body: (_ piece: UnsafeBufferPointer<UInt8>, _ isLast: Bool) -> Void) throws(ResourceLoader.Failure) -> Int {
        let file: OpenFile
        do { file = try OpenFile(regular: path) } catch { throw ResourceLoader.Failure(error) }
        let size = file.size
        guard size <= limit else { throw ResourceLoader.tooLarge(size, limit, kind) }
        // A small file gets a buffer of its size, not a megabyte to clear.
        var buffer = [UInt8](repeating: 0, count: max(1, min(readSize, size + 1)))
        var filled = 0
        var total = 0
        while true {
            if filled == buffer.count {
                // One line longer than the buffer: it grows (the limit bounds it).
                buffer.append(contentsOf: repeatElement(0, count: buffer.count))
            }
            let n: Int
            do { n = try file.read(into: &buffer, from: filled) } catch { throw ResourceLoader.Failure(error) }
            if n == 0 { break }
            total += n
            guard total <= limit else { throw ResourceLoader.tooLarge(total, limit, kind, atLeast: true) }
            // Bytes before the previous end were searched already (but a CR there may now be followed).
            let searched = max(filled - 1, 0)
            filled += n
            guard let cut = Self.lastLineEnd(buffer, in: searched..<filled) else { continue }
            buffer.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[..<cut]), false) }
            buffer.withUnsafeMutableBytes { raw in
                UnsafeMutableRawBufferPointer(rebasing: raw[..<(filled - cut)]).copyMemory(from: UnsafeRawBufferPointer(rebasing: raw[cut..<filled]))
            }
            filled -= cut
        }
        buffer.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[..<filled]), true) }
        return total
    }

    /// The file's first `count` bytes (fewer if it is shorter).
    package func head(_ count: Int = 4096) throws(ResourceLoader.Failure) -> [UInt8] {
        do { return try OpenFile(regular: path).read(count: count, at: 0) } catch { throw ResourceLoader.Failure(error) }
    }

    /// The index just after the last line break in `range` of `bytes` that is known to be whole
    /// there: an LF, or a CR followed by a byte that is not LF.
    static func lastLineEnd(_ bytes: [UInt8], in range: Range<Int>) -> Int? {
        var i = range.upperBound - 1
        while i >= range.lowerBound {
            if bytes[i] == 0x0A { return i + 1 }
            if bytes[i] == 0x0D && i + 1 < range.upperBound { return i + 1 }
            i -= 1
        }
        return nil
    }
}
