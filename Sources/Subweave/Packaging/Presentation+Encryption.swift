import Foundation
import HLS

extension Presentation {
    /// How the run encrypts subtitle segments: nil when the title's intent says clear.
    ///
    /// The reference variant must be AES-128 encrypted, under one key whose KEYFORMAT is
    /// `identity` and which the key file decrypts; anything else is refused, naming the file.
    func subtitleEncryption(_ settings: EffectiveSettings, output: URL) async throws(SubweaveError) -> SubtitleEncryption? {
        guard let file = settings.subtitleKeyFile else { return nil }
        let given = key.flatMap { $0.path == file ? $0 : nil }
        let key: ContentKey
        if let given { key = given } else { key = try ContentKey.read(path: file) }
        let playlist = timeline.playlist
        let name = MediaReader.display(reference.url)
        let keys = playlist.segments.compactMap(\.key)
        guard let first = keys.first else { throw .key(path: file, .videoNotEncrypted(playlist: name)) }
        if let other = keys.first(where: { $0.method != .aes128 }) { throw .key(path: file, .method(playlist: name, method: other.method.text)) }
        let uris = Set(keys.map { $0.uri ?? "" })
        guard uris.count == 1 else { throw .key(path: file, .rotation(playlist: name, keys: uris.count)) }
        guard let uri = first.uri else { throw .key(path: file, .keyFormat(playlist: name, format: "without a URI")) }
        guard first.isIdentity else { throw .key(path: file, .keyFormat(playlist: name, format: "KEYFORMAT=\"\(first.keyFormat ?? "")\"")) }
        // Reading the presentation decrypted its first segments with the key it was given; another
        // key is tried on the first encrypted segment before anything is encrypted with it.
        if given == nil, let index = playlist.segments.firstIndex(where: { $0.key != nil }),
            let url = MediaReader.resolve(playlist.segments[index].uri, against: reference.url)
        {
            _ = try await MediaReader(loader: loader, key: key).segment(
                index, of: playlist, at: reference.url, segmentURL: url, what: "the first encrypted media segment")
        }
        return SubtitleEncryption(key: key, keyURI: Self.subtitleKeyURI(uri, playlistURL: reference.url, output: output))
    }

    /// The video's key URI `uri` (written in the playlist at `playlistURL`) as a subtitle
    /// playlist beside the master `output` writes it: as written when absolute, else relative to
    /// the subtitle playlist (`<folder of output>/<root>/<name>/<generation>/index.m3u8`), or
    /// absolute when the video is remote.
    static func subtitleKeyURI(_ uri: String, playlistURL: URL, output: URL) -> String {
        if uri.hasPrefix("/") || URIRebase.hasScheme(uri) { return uri }
        guard playlistURL.isFileURL else { return MediaReader.resolve(uri, against: playlistURL)?.absoluteString ?? uri }
        let source = URIRebase.components(playlistURL.deletingLastPathComponent().path)
        // Three folders below the master's; their names never match a folder of the key's path.
        let target = URIRebase.components(output.deletingLastPathComponent().path) + ["\u{0}", "\u{0}", "\u{0}"]
        return URIRebase.relative(uri, from: source, to: target)
    }
}
