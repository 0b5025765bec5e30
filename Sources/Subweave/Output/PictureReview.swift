import Foundation
import Platform
import Timebase
import TimedText

/// A folder a person reviews OCR in: each cue's picture (`cue-0001.png`, …) and `index.html`, a
/// page showing every picture beside the text read from it, its times and its confidence (the
/// cues below ``PictureSubtitles/lowConfidence`` marked).
public enum PictureReview {
    /// Writes the review of `ingested` (read with crops) into `folder` (made if needed; a link or
    /// a file there is refused); returns the page's path.
    @discardableResult
    public static func write(_ ingested: IngestedSubtitles, source: String, to folder: String) throws(SubweaveError) -> String {
        guard let crops = ingested.crops else {
            throw .unsupported(MessageText("\(source) holds text, not pictures: there is nothing to review"))
        }
        let parent = (folder as NSString).deletingLastPathComponent
        _ = try onDisk(FileSystem.makeRealFolder(folder, within: parent.isEmpty ? "." : parent))
        var rows = ""
        for (n, (cue, png)) in zip(ingested.cues, crops).enumerated() {
            let name = "cue-\(String(n + 1).zeroPadded(to: 4)).png"
            try onDisk(
                FileSystem.replaceFile(
                    at: folder + "/" + name,
                    with: { (sink) throws(FileFailure) in try png.withUnsafeBufferPointer { (buffer) throws(FileFailure) in try sink(buffer) } },
                    temporaryName: ".subweave-" + name))
            let confidence = ingested.recognition.flatMap { $0.indices.contains(n) ? $0[n] : nil }
            let low = (confidence ?? 0) < PictureSubtitles.lowConfidence
            rows += "<tr\(low ? " class=\"low\"" : "")><td>\(n + 1)</td><td>\(cue.start.decimalSeconds)–\(cue.end.decimalSeconds) s</td>"
            rows += "<td><img src=\"\(name)\" alt=\"cue \(n + 1)\"></td><td><pre>\(escape(cue.text))</pre></td>"
            rows += "<td>\(confidence.map { String(format: "%.1f %%", $0) } ?? "–")</td></tr>\n"
        }
        let page = """
            <!doctype html>
            <html><head><meta charset="utf-8"><title>OCR of \(escape(source))</title>
            <style>body{font-family:sans-serif}td{vertical-align:top;padding:4px 8px;border-bottom:1px solid #ccc}
            tr.low{background:#fde8e8}img{max-width:720px;background:#808080}pre{font-size:16px;margin:0}</style></head>
            <body><h1>OCR of \(escape(source))</h1>
            <p>\(ingested.cues.count) cues; those read below \(Int(PictureSubtitles.lowConfidence)) % confidence are marked.</p>
            <table><tr><th>#</th><th>shown</th><th>picture</th><th>text read</th><th>confidence</th></tr>
            \(rows)</table></body></html>

            """
        let path = folder + "/index.html"
        try onDisk(FileSystem.replaceFile(at: path, with: page, temporaryName: ".subweave-index.html"))
        return path
    }

    /// `text` for HTML: `&`, `<`, `>` and quotes as references.
    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
            .replacingOccurrences(of: "\"", with: "&quot;")
    }
}
