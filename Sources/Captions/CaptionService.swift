/// A CEA-608 caption service: CC1 to CC4 (CTA-608-E: field 1 carries CC1/CC2, field 2 CC3/CC4;
/// the data-channel bit of the control codes selects the first or second of a field).
public enum CaptionService: String, Sendable, CaseIterable, Comparable, Codable {
    case cc1 = "CC1", cc2 = "CC2", cc3 = "CC3", cc4 = "CC4"

    init(field: Int, channel: Int) {
        switch (field, channel) {
        case (1, 1): self = .cc1
        case (1, _): self = .cc2
        case (_, 1): self = .cc3
        default: self = .cc4
        }
    }

    /// The line-21 field that carries it: 1 for CC1 and CC2, 2 for CC3 and CC4.
    public var field: Int { self == .cc1 || self == .cc2 ? 1 : 2 }

    public static func < (a: CaptionService, b: CaptionService) -> Bool { a.rawValue < b.rawValue }
}
