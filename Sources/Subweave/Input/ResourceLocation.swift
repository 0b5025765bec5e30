import Foundation

/// Where a path or URL written in a file (a catalogue line, a tracks file) points.
enum ResourceLocation {
    /// `text` as a URL: an `http(s)://` or `file://` URL as written, an absolute path, or a path
    /// relative to `folder`.
    static func resolve(_ text: String, in folder: URL) -> URL {
        if text.hasPrefix("http://") || text.hasPrefix("https://") || text.hasPrefix("file://"), let url = URL(string: text) { return url }
        if text.hasPrefix("/") { return URL(fileURLWithPath: text) }
        return folder.appendingPathComponent(text).standardizedFileURL
    }
}
