import Captions
import Containers
import Dispatch
import Foundation
import Platform
import Timebase

/// The captions of a whole local MPEG-TS file, read in pieces on every core and joined in order.
///
/// The head is read on until the video and its codec are known. The rest is cut into pieces of
/// about ``pieceSize`` bytes, each cut at a packet of the video that starts a PES packet, so
/// that no PES packet crosses a cut; each piece's caption data is taken out on any core
/// (``SegmentCaptionExtractor``) in chunks that stay in that core's cache, and the pieces are
/// joined in file order. What is decoded is what reading on gives: when a piece cannot be
/// joined (sync lost, a damaged packet, a PES packet without a PTS, a new PMT), the whole file is
/// read again on one core, as it always was.
enum TransportStreamPieces {
    /// Bytes read at once: 1,024 packets, which a core works on while they are in its cache.
    static let chunkSize = 188 * 1_024
    /// About 16 MiB of whole packets.
    ///
    /// Files shorter than four pieces are read on one core (cutting would cost more than it saves).
    static let pieceSize = 188 * 89_240
    /// The tables must name the video within this many bytes from the start, or the file is
    /// read on.
    static let headLimit = 188 * 44_620
    /// How far past a nominal cut a packet starting a video PES packet is looked for.
    static let cutSearch = 188 * 8_192

    /// Decodes the file at `path` fully, in pieces of about `pieceSize` bytes.
    ///
    /// `onRead` is told the bytes decoded so far and the file's size. `pieces` is how many were
    /// joined (0: the file was read on, on one core).
    static func decode(_ path: String, pieceSize requested: Int = Self.pieceSize, onRead: ((_ done: Int, _ total: Int) -> Void)? = nil) throws(SubweaveError)
        -> (captions: TransportStreamCaptions, pieces: Int)
    {
        let file: OpenFile
        do { file = try OpenFile(regular: path) } catch { throw .unreadable(path: path, what: "", ReadFailure(error)) }
        let size = file.size
        let pieceSize = max(188, requested - requested % 188)
        let workers = ProcessInfo.processInfo.activeProcessorCount
        guard workers > 1, size >= 4 * pieceSize,
            let apart = try apart(file, pieceSize: pieceSize, workers: workers, onRead: onRead.map { told in { told($0, size) } })
        else { return (try onOneCore(path, onRead: onRead), 0) }
        return apart
    }

    /// The file read on, on one core (the next chunk is read ahead on another thread).
    static func onOneCore(_ path: String, onRead: ((_ done: Int, _ total: Int) -> Void)?) throws(SubweaveError) -> TransportStreamCaptions {
        let chunks = try CaptionFile.chunks(path)
        if let onRead {
            let total = chunks.fileSize
            chunks.onRead = { onRead($0, total) }
        }
        return TransportStreamCaptions.decode(chunks)
    }

    /// The file read in pieces; nil when it has to be read on instead.
    private static func apart(_ file: OpenFile, pieceSize: Int, workers: Int, onRead: ((Int) -> Void)?) throws(SubweaveError)
        -> (captions: TransportStreamCaptions, pieces: Int)?
    {
        let size = file.size
        var reader = TransportStreamCaptionReader(timeOf: { MediaTime(ticks: $0) })
        var buffer = [UInt8](repeating: 0, count: chunkSize)
        var position = 0
        // The head, until the tables name the video (its first chunk, as a rule).
        var extractor: SegmentCaptionExtractor?
        while extractor == nil {
            let count = try read(file, into: &buffer, count: chunkSize, at: position)
            guard count > 0, reader.feed(buffer[0..<count]) else { return nil }
            position += count
            extractor = reader.segmentExtractor()
            // Once the tables are read, a reader that gives no extractor never will (a teletext
            // or DVB subtitle stream beside the video, a codec without captions).
            if extractor == nil && (reader.videoStreamType != nil || position >= headLimit) { return nil }
        }
        guard let extractor, let first = try cut(file, from: position, extractor, into: &buffer) else { return nil }
        while position < first {
            let count = try read(file, into: &buffer, count: min(chunkSize, first - position), at: position)
            guard count > 0, reader.feed(buffer[0..<count]) else { return nil }
            position += count
        }
        var starts = [first]
        var nominal = first + pieceSize
        while nominal + pieceSize / 2 < size {
            if let start = try cut(file, from: nominal, extractor, into: &buffer), let last = starts.last, start > last { starts.append(start) }
            nominal += pieceSize
        }
        onRead?(position)
        guard reader.endBeforeJoining() else { return nil }
        let pieces = starts.indices.map { (start: starts[$0], end: starts.indices.contains($0 + 1) ? starts[$0 + 1] : nil) }
        guard try join(pieces, of: file, extractor: extractor, workers: workers, into: &reader, onRead: onRead) else { return nil }
        return (TransportStreamCaptions(finishing: reader), pieces.count)
    }

    /// Where the first packet starting a video PES packet at or after `offset` (a packet's start)
    /// is, within ``cutSearch`` bytes; nil when none is, or sync does not hold there.
    private static func cut(_ file: OpenFile, from offset: Int, _ extractor: SegmentCaptionExtractor, into buffer: inout [UInt8]) throws(SubweaveError)
        -> Int?
    {
        var at = offset
        while at < offset + cutSearch {
            let count = try read(file, into: &buffer, count: chunkSize, at: at)
            let whole = count - count % TransportStream.packetSize
            guard whole > 0 else { return nil }
            switch extractor.unitStart(in: buffer[0..<whole]) {
            case .at(let found): return at + found
            // A packet without the sync byte ends the search as the end of the file does.
            case .lostSync: return nil
            case .notFound: at += whole
            }
        }
        return nil
    }

    /// Takes the pieces' caption data out on `workers` threads, at most a few pieces ahead of the
    /// one joined, and joins them to `reader` in order; false as soon as one cannot be joined.
    private static func join(
        _ pieces: [(start: Int, end: Int?)], of file: OpenFile, extractor: SegmentCaptionExtractor, workers: Int,
        into reader: inout TransportStreamCaptionReader, onRead: ((Int) -> Void)?
    ) throws(SubweaveError) -> Bool {
        let board = PieceBoard(count: pieces.count, ahead: workers + 1)
        let shared = SharedFile(file: file)
        let group = DispatchGroup()
        for worker in 0..<workers {
            // Queues of their own, not the global pool: this thread blocks while it waits for
            // them, and a pool with every thread so blocked would never start them.
            DispatchQueue(label: "subweave.ts-piece.\(worker)").async(group: group) {
                extract(pieces, of: shared, extractor: extractor, board: board)
            }
        }
        // Every way out stops the workers and waits for them: none outlives the call.
        defer {
            board.stop()
            group.wait()
        }
        for index in pieces.indices {
            switch board.take(index) {
            case .failure(let failure):
                throw .unreadable(path: file.path, what: "", ReadFailure(failure))
            case .success(let segment):
                guard segment.joins else { return false }
                reader.join(segment)
            }
            onRead?(pieces[index].end ?? file.size)
        }
        return true
    }

    /// One worker: claims pieces in order and takes their caption data out, until none is left
    /// or the board stops.
    private static func extract(_ pieces: [(start: Int, end: Int?)], of shared: SharedFile, extractor: SegmentCaptionExtractor, board: PieceBoard) {
        var buffer = [UInt8](repeating: 0, count: chunkSize)
        while let index = board.claim() {
            let (start, end) = pieces[index]
            var reading = extractor.reading()
            var at = start
            var failure: FileFailure?
            while end.map({ at < $0 }) ?? true, !board.stopped {
                let count: Int
                do { count = try shared.file.read(into: &buffer, count: min(chunkSize, (end ?? Int.max) - at), at: at) } catch {
                    failure = error
                    break
                }
                guard count > 0 else { break }
                reading.feed(buffer[0..<count])
                at += count
            }
            board.deliver(index, failure.map { .failure($0) } ?? .success(reading.finish()))
        }
    }

    private static func read(_ file: OpenFile, into buffer: inout [UInt8], count: Int, at offset: Int) throws(SubweaveError) -> Int {
        do { return try file.read(into: &buffer, count: count, at: offset) } catch { throw .unreadable(path: file.path, what: "", ReadFailure(error)) }
    }
}

/// The open file, read by several threads at once: only with `pread`, which keeps no position.
private struct SharedFile: @unchecked Sendable {
    let file: OpenFile
}

/// The pieces' state between the workers and the thread joining them: which is the next to
/// claim, what each gave, and whether to stop.
private final class PieceBoard: @unchecked Sendable {
    // Every stored property is read and written under `condition` only.
    private let condition = NSCondition()
    private let count: Int
    private let ahead: Int
    private var claimed = 0
    private var joined = 0
    private var results: [Int: Result<SegmentCaptionExtractor.Segment, FileFailure>] = [:]
    private var isStopped = false

    /// `count` pieces, claimed at most `ahead` past the one being joined (memory stays that of a
    /// few pieces' caption data).
    init(count: Int, ahead: Int) {
        self.count = count
        self.ahead = max(1, ahead)
    }

    /// Whether the joining thread has stopped (a worker reading a piece gives it up).
    var stopped: Bool { condition.withLock { isStopped } }

    /// The next piece to read, waiting while the workers are far enough ahead; nil when all are
    /// claimed or the board stopped.
    func claim() -> Int? {
        condition.withLock {
            while !isStopped && claimed < count && claimed >= joined + ahead { condition.wait() }
            guard !isStopped, claimed < count else { return nil }
            claimed += 1
            return claimed - 1
        }
    }

    /// What piece `index` gave.
    func deliver(_ index: Int, _ result: Result<SegmentCaptionExtractor.Segment, FileFailure>) {
        condition.withLock {
            results[index] = result
            condition.broadcast()
        }
    }

    /// What piece `index` gave, waiting until it is read; the workers may then claim one more.
    func take(_ index: Int) -> Result<SegmentCaptionExtractor.Segment, FileFailure> {
        condition.withLock {
            while true {
                if let result = results.removeValue(forKey: index) {
                    joined = index + 1
                    condition.broadcast()
                    return result
                }
                condition.wait()
            }
        }
    }

    /// Stops the workers: none claims another piece, and one reading gives it up.
    func stop() {
        condition.withLock {
            isStopped = true
            condition.broadcast()
        }
    }
}
