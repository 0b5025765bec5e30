import Containers
import Foundation
import HLS
import Platform
import Timebase

/// Reads what a presentation names — playlists, media segments, initialisation sections — with
/// errors that say which file, what it was needed for, and why it failed.
///
/// The packager, the
/// validator and the caption scanner each hold one.
struct MediaReader: Sendable {
    let loader: ResourceLoader
    /// The title's key: AES-128 segments are decrypted with it as they are read.
    var key: ContentKey?
    /// Without ``key``, whether an AES-128 segment's key is fetched from its URI, as a player
    /// fetches it (`validate` reads what it checks so).
    var fetchesKeys = false

    init(loader: ResourceLoader, key: ContentKey? = nil) {
        self.loader = loader
        self.key = key
    }

    /// Reads segment `index` of `playlist` (at `url`, resolved: `segmentURL`), decrypted when it
    /// is an AES-128 segment and the title's key is known; `what` says what it is, for the error.
    ///
    /// An AES-128 segment without the key is ``SubweaveError/encrypted(_:)``; a SAMPLE-AES one is
    /// read as it is (its timestamps and SEI are in the clear).
    func segment(
        _ index: Int, of playlist: MediaPlaylist, at url: URL, segmentURL: URL, kind: ResourceKind = .segment, what: String
    ) async throws(SubweaveError) -> [UInt8] {
        let buffer = ReusableBytes()
        try await segment(index, of: playlist, at: url, segmentURL: segmentURL, kind: kind, what: what, into: buffer)
        return buffer.withBytes { bytes in bytes }
    }

    /// ``segment(_:of:at:segmentURL:kind:what:)`` read into `buffer`, whose storage is reused
    /// from the segment read before (segments read one after another fault no fresh memory in).
    func segment(
        _ index: Int, of playlist: MediaPlaylist, at url: URL, segmentURL: URL, kind: ResourceKind = .segment, what: String,
        into buffer: ReusableBytes
    ) async throws(SubweaveError) {
        let segment = playlist.segments[index]
        do { try await loader.read(segmentURL, kind: kind, range: segment.byteRange, into: buffer) } catch {
            throw .unreadable(path: Self.display(segmentURL), what: what, error)
        }
        guard let segmentKey = segment.key, segmentKey.method == .aes128 else { return }
        let place = "segment \(index) (line \(segment.line ?? 0) of \(Self.display(url)))"
        guard let key = try await key(for: segmentKey, of: url) else {
            throw .encrypted(EncryptedSegment(place: place, method: segmentKey.method.text, purpose: .timestamps))
        }
        let iv = segmentKey.iv(forSequenceNumber: playlist.mediaSequence + index)
        try buffer.withBytes { (bytes: inout [UInt8]) throws(SubweaveError) in bytes = try key.decrypt(bytes, iv: iv, place: place) }
    }

    /// ``segment(_:of:at:segmentURL:kind:what:)`` handed to `body` in order, `state` carried from
    /// one call to the next: in chunks of `chunkSize` bytes read into `buffer` when it is a local
    /// file read as it is (no further once `until` says the state wants nothing more), else whole
    /// (an AES-128 segment is decrypted whole).
    func segment<State: Sendable>(
        _ index: Int, of playlist: MediaPlaylist, at url: URL, segmentURL: URL, what: String, chunkSize: Int, into buffer: ReusableBytes,
        state: State, until wantsNoMore: (@Sendable (State) -> Bool)? = nil, _ body: @escaping @Sendable (inout State, ArraySlice<UInt8>) -> Void
    ) async throws(SubweaveError) -> State {
        let segment = playlist.segments[index]
        guard segment.key?.method != .aes128 else {
            try await self.segment(index, of: playlist, at: url, segmentURL: segmentURL, what: what, into: buffer)
            var state = state
            buffer.withBytes { body(&state, $0[...]) }
            return state
        }
        do {
            return try await loader.read(
                segmentURL, kind: .segment, range: segment.byteRange, chunkSize: chunkSize, into: buffer, state: state, until: wantsNoMore, body)
        } catch {
            throw .unreadable(path: Self.display(segmentURL), what: what, error)
        }
    }

    /// The key that decrypts segments under `segmentKey` (of the playlist at `url`): the title's,
    /// else with ``fetchesKeys`` the 16 bytes at its URI; nil when there is none to use.
    func key(for segmentKey: SegmentKey, of url: URL) async throws(SubweaveError) -> ContentKey? {
        if let key { return key }
        guard fetchesKeys, segmentKey.isIdentity, let uri = segmentKey.uri, let keyURL = Self.resolve(uri, against: url) else { return nil }
        let bytes = try await read(keyURL, kind: .subtitle, what: "the key (EXT-X-KEY URI)")
        guard let key = ContentKey(bytes: bytes, path: Self.display(keyURL)) else {
            throw .key(path: Self.display(keyURL), .notAKey(bytes: bytes.count))
        }
        return key
    }

    /// Reads `url` (or `range` of it) as a file of `kind`; `what` says what it is, for the error.
    func read(_ url: URL, kind: ResourceKind, range: ByteRange? = nil, what: String) async throws(SubweaveError) -> [UInt8] {
        do { return try await loader.read(url, kind: kind, range: range) } catch {
            throw .unreadable(path: Self.display(url), what: what, error)
        }
    }

    /// The chunks a segment is probed in (a whole number of MPEG-TS packets).
    static let probeChunkSize = 188 * 1_024

    /// Reads the first segment of every discontinuity sequence of `playlist` (at `url`) and finds
    /// where its presentation starts.
    func timeline(of playlist: MediaPlaylist, at url: URL) async throws(SubweaveError) -> ProgrammeTimeline {
        var probes: [Int: SegmentTimeline] = [:]
        var notes: [String] = []
        var initializations: [MediaSegment.Initialization: [UInt8]] = [:]
        for index in ProgrammeTimeline.segmentsToProbe(playlist) {
            let segment = playlist.segments[index]
            let place = "segment \(index) (line \(segment.line ?? 0) of \(Self.display(url)))"
            if let method = segment.encryption, method.hidesTimestamps, (key == nil && !fetchesKeys) || method != .aes128 {
                throw .encrypted(EncryptedSegment(place: place, method: method.text, purpose: .timestamps))
            }
            let segmentURL = try resolve(segment.uri, against: url, in: playlist, line: segment.line)
            // Probed as it is read, a chunk at a time: an MPEG-TS segment (6 MiB at 8 Mbit/s) is
            // not held whole, nor fresh memory faulted in for it.
            var reading = try await self.segment(
                index, of: playlist, at: url, segmentURL: segmentURL,
                what: "the first media segment of discontinuity sequence \(segment.discontinuitySequence)", chunkSize: Self.probeChunkSize,
                into: ReusableBytes(), state: TimelineProbe.Reading(), until: \.isSettled
            ) { reading, chunk in reading.feed(chunk) }
            let known = segment.map.map { initializations[$0] != nil } ?? true
            let initialization = try await initializationSection(segment, of: url, cache: &initializations)
            if !known, let initialization, let map = segment.map {
                let where_ = "\(Self.display(Self.resolve(map.uri, against: url) ?? url)) (the EXT-X-MAP of \(place))"
                notes += ISOBMFF.initializationNotes(initialization).map { "\(where_): \($0)" }
            }
            do {
                let probe = try reading.finish(initialization: initialization)
                probes[index] = probe
                notes += probe.notes.map { "\(Self.display(segmentURL)) (\(place)): \($0)" }
            } catch {
                // A fault in the initialisation section is reported against it, not the segment.
                if let map = segment.map, initialization != nil, (try? ISOBMFF.tracks(initialization ?? [])) == nil {
                    throw .media(file: "\(Self.display(Self.resolve(map.uri, against: url) ?? url)) (the EXT-X-MAP of \(place))", error)
                }
                throw .media(file: "\(Self.display(segmentURL)) (\(place))", error)
            }
        }
        var timeline = ProgrammeTimeline(playlist: playlist, probes: probes)
        timeline.notes = notes
        return timeline
    }

    /// The `EXT-X-MAP` data of `segment`, read once per map.
    func initializationSection(
        _ segment: MediaSegment, of playlistURL: URL,
        cache: inout [MediaSegment.Initialization: [UInt8]]
    ) async throws(SubweaveError) -> [UInt8]? {
        guard let map = segment.map else { return nil }
        if let cached = cache[map] { return cached }
        guard let mapURL = Self.resolve(map.uri, against: playlistURL) else {
            throw .playlist(HLSError(.malformedTag, source: Self.display(playlistURL), line: nil, "the EXT-X-MAP URI is not a valid URI"))
        }
        let data = try await read(mapURL, kind: .segment, range: map.byteRange, what: "the initialisation section (EXT-X-MAP)")
        cache[map] = data
        return data
    }

    /// Resolves a segment URI of `playlist` (read from `base`), naming the line when it is not a URI.
    func resolve(_ uri: String, against base: URL, in playlist: MediaPlaylist, line: Int?) throws(SubweaveError) -> URL {
        guard let url = Self.resolve(uri, against: base) else {
            throw .playlist(HLSError(.malformedTag, source: Self.display(base), line: line, "the segment URI is not a valid URI"))
        }
        return url
    }

    /// Resolves a playlist URI against the playlist it appears in.
    static func resolve(_ uri: String, against base: URL) -> URL? {
        if let url = URL(string: uri, relativeTo: base) { return url.absoluteURL }
        let escaped = uri.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.union(CharacterSet(charactersIn: "?#%")))
        return escaped.flatMap { URL(string: $0, relativeTo: base)?.absoluteURL }
    }

    /// A URL as a person reads it: a path for files, the URL otherwise.
    static func display(_ url: URL) -> String {
        url.isFileURL ? url.path : url.absoluteString
    }
}

extension MediaReader {
    /// The local paths a playlist's entries name: a plain file name (most segments are) is in the
    /// playlist's folder, its path made without resolving a URL for each of thousands of
    /// segments; anything else is resolved as a URL.
    struct LocalPaths {
        private let playlist: URL
        /// The playlist's folder, ending in `/`; nil when the playlist is not a local file.
        private let folder: String?

        init(playlist: URL) {
            self.playlist = playlist
            folder = MediaReader.resolve("x", against: playlist).flatMap { $0.isFileURL ? String($0.path.dropLast()) : nil }
        }

        /// The path of the local file `uri` names; nil when it names none (or is not a URI).
        func path(_ uri: String) -> String? {
            if let folder, Self.isPlainFileName(uri) { return folder + uri }
            guard let url = MediaReader.resolve(uri, against: playlist), url.isFileURL else { return nil }
            return url.path
        }

        /// Whether `uri` is a file name a URL resolves to itself in the playlist's folder: ASCII
        /// letters, digits, `-`, `_` and `.`, and not `.` or `..`.
        static func isPlainFileName(_ uri: String) -> Bool {
            let utf8 = uri.utf8
            return utf8.withContiguousStorageIfAvailable { isPlainFileName(bytes: $0) } ?? isPlainFileName(bytes: utf8)
        }

        /// ``isPlainFileName(_:)`` of the name's UTF-8 bytes.
        static func isPlainFileName(bytes: some Collection<UInt8>) -> Bool {
            // `.` and `..` name folders.
            guard !bytes.isEmpty, bytes.count > 2 || !bytes.allSatisfy({ $0 == UInt8(ascii: ".") }) else { return false }
            return bytes.allSatisfy(isPlain)
        }

        private static func isPlain(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): return true
            case UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."): return true
            default: return false
            }
        }
    }
}
