import Foundation
import Platform
import Timebase
import TimedText

/// Reading a local subtitle file a piece at a time, so that a large file is never held whole:
/// only its cues are.
///
/// Used only where the result is the same as reading the file whole: a local file in UTF-8
/// (detected, or declared `utf-8`), SubRip or WebVTT. A file in another encoding is read whole
/// (its encoding is guessed from all of it), as is a WebVTT file with a block, or a SubRip file
/// with a line, longer than ``longestBlockInPieces``.
extension SubtitleIngest {
    /// What one read through a local file shows.
    package struct FileScan: Sendable {
        /// The file's size in bytes.
        package var size = 0
        /// Whether every byte is UTF-8 (a UTF-8 byte order mark included).
        package var isUTF8 = true
        /// How many times `-->` occurs (at least the number of cues).
        package var arrows = 0
        /// The most bytes between two blank lines (a WebVTT block and its line breaks).
        package var longestBlock = 0
        /// The most bytes in a line.
        package var longestLine = 0
        /// The control characters no cue keeps.
        package var controls = ControlCharacters()
    }

    /// The longest WebVTT block, or SubRip line, read in pieces: a longer one is held whole
    /// either way, and read whole it is held once, not gathered piece by piece and copied.
    package static let longestBlockInPieces = 16 << 20

    /// Why a file read in pieces gave no subtitles.
    package enum PieceFailure: Error {
        /// The file could not be read.
        case unreadable(ResourceLoader.Failure)
        /// The file is not of its format.
        case load(LoadFailure)
    }

    /// Reads the local file at `url` in pieces if it can (``readsInPieces(_:_:)``), off the
    /// cooperative pool; nil when it must be read whole (another format or encoding).
    ///
    /// `format` nil: the format the file's start shows, else `fallback`. Gives the subtitles and
    /// the file's size.
    package static func readLocalInPieces(
        _ url: URL, format: SubtitleFormat?, fallback: SubtitleFormat? = nil, encoding: TextEncoding?, limit: Int,
        sourceID: String, location: String, purpose: Purpose
    ) async throws(PieceFailure) -> (ingested: IngestedSubtitles, size: Int)? {
        guard url.isFileURL, encoding == nil || encoding == .utf8 else { return nil }
        let file = LinePieces(path: url.path, limit: limit)
        return try await onDispatch { () throws(PieceFailure) -> (ingested: IngestedSubtitles, size: Int)? in
            let head: [UInt8]
            do throws(ResourceLoader.Failure) { head = try file.head() } catch { throw .unreadable(error) }
            // UTF-16/32 of ASCII text and ISO-2022 pass for UTF-8: read whole, where they are sniffed.
            if encoding == nil && TextDecoder.sniffsAnotherEncoding(head) { return nil }
            let (chosen, note) = SubtitleFormat.resolve(declared: format, head: head, encoding: encoding, fromExtension: fallback)
            guard let chosen, chosen == .srt || chosen == .vtt else { return nil }
            let scan = try scanForPieces(file)
            guard readsInPieces(chosen, scan) else { return nil }
            let ingested = try readPieces(file, scan: scan, format: chosen, sourceID: sourceID, location: location, purpose: purpose)
            return (note.map(ingested.adding) ?? ingested, scan.size)
        }
    }

    /// Reads `file` through once, a piece at a time (``TextFileScan``: every answer in one pass).
    package static func scan(_ file: LinePieces) throws(ResourceLoader.Failure) -> FileScan {
        var text = TextFileScan()
        let size = try file.forEach { piece, _ in text.scan(piece) }
        return FileScan(
            size: size, isUTF8: text.isUTF8, arrows: text.arrows, longestBlock: text.longestBlock, longestLine: text.longestLine,
            controls: text.controls)
    }

    /// ``scan(_:)``, failing as ``readPieces(_:scan:format:sourceID:location:purpose:)`` does.
    package static func scanForPieces(_ file: LinePieces) throws(PieceFailure) -> FileScan {
        do throws(ResourceLoader.Failure) { return try scan(file) } catch { throw .unreadable(error) }
    }

    /// Whether `file` as `scan` found it can be read in pieces as `format`.
    package static func readsInPieces(_ format: SubtitleFormat, _ scan: FileScan) -> Bool {
        switch format {
        case .srt: return scan.isUTF8 && scan.longestLine <= longestBlockInPieces
        case .vtt: return scan.isUTF8 && scan.longestBlock <= longestBlockInPieces
        default: return false
        }
    }

    /// Reads a local file that ``readsInPieces(_:_:)`` accepts, a piece at a time.
    ///
    /// The cues and warnings are those ``read(_:format:encoding:sourceID:location:purpose:)`` gives
    /// for the file's bytes (unless the file changes between the scan and this read).
    package static func readPieces(
        _ file: LinePieces, scan: FileScan, format: SubtitleFormat, sourceID: String, location: String, purpose: Purpose = .packaging
    ) throws(PieceFailure) -> IngestedSubtitles {
        var isFirst = true
        /// Calls `body` with each piece, the UTF-8 byte order marks dropped from the start of the first.
        func eachPiece(_ body: (UnsafeBufferPointer<UInt8>, _ isFirst: Bool, _ isLast: Bool) throws(PieceFailure) -> Void) throws(PieceFailure) {
            var failure: PieceFailure?
            do throws(ResourceLoader.Failure) {
                try file.forEach { piece, isLast in
                    guard failure == nil else { return }
                    var bytes = piece[...]
                    // Every mark at the start, as decoding the whole file removes them.
                    while isFirst, bytes.starts(with: TextDecoder.utf8ByteOrderMark) { bytes = bytes.dropFirst(TextDecoder.utf8ByteOrderMark.count) }
                    do throws(PieceFailure) { try body(UnsafeBufferPointer(rebasing: bytes), isFirst, isLast) } catch { failure = error }
                    isFirst = false
                }
            } catch {
                throw .unreadable(error)
            }
            if let failure { throw failure }
        }
        switch format {
        case .vtt:
            var reader = WebVTTParser.Reader(options: webVTTOptions(purpose), expectedCues: scan.arrows)
            try eachPiece { piece, _, isLast throws(PieceFailure) in
                do throws(SubtitleFileError) { try reader.read(piece, isLast: isLast) } catch {
                    throw .load(
                        LoadFailure(
                            .notSubtitles, sourceID: sourceID, location: location, "\(error.description); check that the declared format matches the file"))
                }
            }
            return finish(
                webVTT(reader.finish()), format: .vtt, encoding: .utf8, decodingWarnings: scan.controls.warning.map { [$0] } ?? [], purpose: purpose)
        default:
            var reader = SubRipParser.Reader(expectedCues: scan.arrows)
            var sawText = false
            try eachPiece { piece, isFirst, isLast in
                if !sawText { sawText = Self.holdsText(piece) }
                reader.read(bytes: piece, isFirst: isFirst, isLast: isLast)
            }
            let (cues, warnings) = reader.finish()
            let parsed = Parsed(cues: cues, ingestFormat: "srt_converted", warnings: warnings, textSanitized: true)
            let found = (scan.controls.warning.map { [$0] } ?? []) + (cues.isEmpty && sawText ? [noCueFound(.utf8, .srt)] : [])
            return finish(parsed, format: .srt, encoding: .utf8, decodingWarnings: found, purpose: purpose)
        }
    }

    /// Whether `piece` (UTF-8) holds a character that is not white space: decided on the bytes
    /// when it is ASCII, else on the decoded characters.
    static func holdsText(_ piece: UnsafeBufferPointer<UInt8>) -> Bool {
        var ascii = true
        for byte in piece {
            switch byte {
            case 0x09...0x0D, 0x20: continue
            case 0x80...: ascii = false
            default: return true
            }
        }
        return !ascii && String(decoding: piece, as: UTF8.self).contains { !$0.isWhitespace }
    }
}
