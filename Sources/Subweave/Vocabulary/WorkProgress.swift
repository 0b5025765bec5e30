/// How far a long piece of work has come, for a progress display.
///
/// `done` of `total` units of one stage. Told from whichever thread does the work; a handler
/// must be quick.
public struct WorkProgress: Sendable, Equatable {
    /// What is being counted.
    public enum Stage: String, Sendable {
        /// Video segments decoded for in-band captions.
        case captionSegments = "video segments read for captions"
        /// Subtitle tracks read and segmented.
        case tracks = "subtitle tracks"
        /// Bytes of a media file decoded.
        case bytes = "bytes"
    }

    public let stage: Stage
    public let done: Int
    public let total: Int

    public init(_ stage: Stage, done: Int, total: Int) {
        self.stage = stage
        self.done = done
        self.total = total
    }
}

/// Told each time a long piece of work advances.
public typealias ProgressHandler = @Sendable (WorkProgress) -> Void
