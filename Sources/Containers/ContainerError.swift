import Timebase

/// A media file that cannot be read, with the byte offset and what was expected there.
public struct ContainerError: ExplainedError, Equatable {
    public enum Code: String, Sendable {
        /// Neither MPEG-TS (sync byte 0x47 every 188 bytes) nor ISO BMFF boxes.
        case unknownFormat
        /// A structure is cut short or inconsistent.
        case malformed
        /// Something the timeline needs is absent (PAT, PMT, a timestamp, `tfdt`, `mdhd`).
        case missing
    }

    public let code: Code
    /// The byte offset the problem was found at.
    public let offset: Int
    public let reason: String

    /// An error of `code` found at byte `offset`, explained by `reason`.
    public init(_ code: Code, offset: Int, _ reason: String) {
        self.code = code
        self.offset = offset
        self.reason = reason
    }

    public var codeName: String { code.rawValue }
    public var context: String { "byte offset \(offset)" }
    public var explanation: String { reason }
    public var description: String { explainedDescription }
}
