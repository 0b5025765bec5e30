import Foundation

/// The kinds of file Subweave reads, each with its own size limit (``ReadLimits``).
public enum ResourceKind: String, Sendable, CaseIterable {
    /// A master or media playlist.
    case playlist
    /// A side-loaded subtitle or caption file (WebVTT, SubRip, SCC), or a tracks file.
    case subtitle
    /// A media segment or initialisation section.
    case segment
}

/// The most bytes Subweave reads of one file of each kind: a larger file is refused with an error
/// that names the limit and how to raise it, never read into memory.
public struct ReadLimits: Sendable, Equatable {
    /// Master and media playlists: 64 MiB (a 10-hour title with 1-second segments is about 1 MiB).
    public var playlist: Int = 64 << 20
    /// Subtitle and caption files: 512 MiB.
    public var subtitle: Int = 512 << 20
    /// One media segment or initialisation section: 2 GiB.
    public var segment: Int = 2 << 30

    /// The default limits (see each property).
    public init() {}

    /// The limit for `kind`.
    public subscript(kind: ResourceKind) -> Int {
        get {
            switch kind {
            case .playlist: return playlist
            case .subtitle: return subtitle
            case .segment: return segment
            }
        }
        set {
            switch kind {
            case .playlist: playlist = newValue
            case .subtitle: subtitle = newValue
            case .segment: segment = newValue
            }
        }
    }

    /// Parses a size such as `64MiB`, `2GiB`, `500k` or `1048576` (bytes); nil if it is not one.
    public static func parseSize(_ text: String) -> Int? {
        let lower = text.lowercased()
        let digits = lower.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, let value = Int(digits) else { return nil }
        let units: [String: Int] = [
            "": 1, "b": 1, "k": 1 << 10, "kb": 1000, "kib": 1 << 10, "m": 1 << 20, "mb": 1_000_000,
            "mib": 1 << 20, "g": 1 << 30, "gb": 1_000_000_000, "gib": 1 << 30,
        ]
        guard let unit = units[String(lower.dropFirst(digits.count))] else { return nil }
        let (product, overflow) = value.multipliedReportingOverflow(by: unit)
        return overflow ? nil : product
    }
}

/// Why a read failed, as a phrase that follows the file's name ("does not exist …").
public struct ReadFailure: Error, Sendable, Equatable {
    /// The phrase, with the settings it names (a limit to raise) kept apart.
    public let message: MessageText
    /// A failure explained by a phrase that follows the file name.
    public init(explanation: MessageText) { message = explanation }
    /// The phrase as the library spells it.
    public var explanation: String { message.description }
}
