import Foundation

/// A row of a table-driven test that remembers where it was written.
public struct SourceRow<Value: Sendable>: Sendable {
    public let value: Value
    public let file: String
    public let line: Int

    public init(_ value: Value, file: String = #filePath, line: Int = #line) {
        self.value = value
        self.file = file
        self.line = line
    }
}

/// Subtitle files written from (start, end, text) in seconds, for tests that place known cues.
public enum SubtitleText {
    public static func srt(_ cues: [(Double, Double, String)]) -> String {
        cues.enumerated().map { i, c in "\(i + 1)\n\(time(c.0, ",")) --> \(time(c.1, ","))\n\(c.2)\n" }.joined(separator: "\n")
    }

    public static func vtt(_ cues: [(Double, Double, String)]) -> String {
        "WEBVTT\n\n" + cues.map { "\(time($0.0, ".")) --> \(time($0.1, "."))\n\($0.2)\n" }.joined(separator: "\n")
    }

    public static func time(_ seconds: Double, _ separator: String = ",") -> String {
        let ms = Int((seconds * 1000).rounded())
        return String(format: "%02d:%02d:%02d%@%03d", ms / 3_600_000, ms / 60_000 % 60, ms / 1000 % 60, separator, ms % 1000)
    }
}
