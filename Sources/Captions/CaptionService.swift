import TimedText

/// An in-band caption service: CEA-608's CC1 to CC4 (CTA-608-E: field 1 carries CC1/CC2, field 2
/// CC3/CC4; the data-channel bit of the control codes selects the first or second of a field), a
/// CEA-708 DTVCC service, SERVICE1 to SERVICE63 (HLS's INSTREAM-ID spelling), or a DVB teletext
/// subtitle page, written as viewers key it: `888`, `8A0` (a magazine 1–8 and two hexadecimal
/// digits).
public struct CaptionService: RawRepresentable, Hashable, Sendable, Comparable, Codable, CustomStringConvertible {
    public let rawValue: String
    /// The 708 service number (1–63), or nil for a 608 channel or a teletext page.
    public let serviceNumber: Int?
    /// Whether it is a DVB teletext page (HLS cannot declare it in-band: it is published only as
    /// a subtitle rendition).
    public let isTeletext: Bool

    public init?(rawValue: String) {
        let upper = rawValue.uppercased()
        if ["CC1", "CC2", "CC3", "CC4"].contains(upper) {
            self.rawValue = upper
            serviceNumber = nil
            isTeletext = false
        } else if upper.hasPrefix("SERVICE"), let n = Int(upper.dropFirst(7)), (1...63).contains(n), String(n) == upper.dropFirst(7) {
            self.rawValue = "SERVICE\(n)"
            serviceNumber = n
            isTeletext = false
        } else if let page = Self.teletext(upper) {
            self = page
        } else {
            return nil
        }
    }

    private init(cc number: Int) {
        rawValue = "CC\(number)"
        serviceNumber = nil
        isTeletext = false
    }

    private init(page: String) {
        rawValue = page
        serviceNumber = nil
        isTeletext = true
    }

    /// The teletext page `number` (`888`, `8A0`: a magazine digit 1–8 and two hexadecimal
    /// digits), if it is one.
    public static func teletext(_ number: String) -> CaptionService? {
        let scalars = Array(number.unicodeScalars)
        guard scalars.count == 3, ("1"..."8").contains(scalars[0]), scalars.dropFirst().allSatisfy({ $0.properties.isASCIIHexDigit }) else {
            return nil
        }
        return CaptionService(page: number.uppercased())
    }

    public static let cc1 = CaptionService(cc: 1), cc2 = CaptionService(cc: 2), cc3 = CaptionService(cc: 3), cc4 = CaptionService(cc: 4)

    /// A 708 service, 1–63.
    public static func dtvcc(_ number: Int) -> CaptionService? { CaptionService(rawValue: "SERVICE\(number)") }

    /// Every CEA service: the four 608 channels, then the 63 708 services (teletext pages are
    /// not listed: they are found in the stream).
    public static let cea: [CaptionService] = [.cc1, .cc2, .cc3, .cc4] + (1...63).compactMap(dtvcc)

    init(field: Int, channel: Int) {
        switch (field, channel) {
        case (1, 1): self = .cc1
        case (1, _): self = .cc2
        case (_, 1): self = .cc3
        default: self = .cc4
        }
    }

    /// Whether it is a CEA-708 service.
    public var isDTVCC: Bool { serviceNumber != nil }

    /// The line-21 field that carries a 608 channel: 1 for CC1 and CC2, 2 for CC3 and CC4; nil
    /// for a 708 service or a teletext page.
    public var field: Int? {
        guard serviceNumber == nil, !isTeletext else { return nil }
        return self == .cc1 || self == .cc2 ? 1 : 2
    }

    public var description: String { rawValue }

    /// How its renditions are read (`ingest_format`) and named in identities: `cea608`,
    /// `cea708` or `teletext`.
    public var family: String { isTeletext ? "teletext" : isDTVCC ? "cea708" : "cea608" }

    /// 608 channels first, then 708 services by number, then teletext pages.
    public static func < (a: CaptionService, b: CaptionService) -> Bool {
        if a.isTeletext || b.isTeletext { return a.isTeletext == b.isTeletext ? a.rawValue < b.rawValue : b.isTeletext }
        switch (a.serviceNumber, b.serviceNumber) {
        case (nil, nil): return a.rawValue < b.rawValue
        case (nil, _): return true
        case (_, nil): return false
        case (let x?, let y?): return x < y
        }
    }

    public init(from decoder: Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let service = CaptionService(rawValue: text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not a caption service: \(text)"))
        }
        self = service
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

extension CaptionService {
    /// The service a caption file's track takes (SCC, MCC): `wanted`, or the first with text;
    /// a warning names the services left out, or says that `wanted` has no text.
    package static func choose(
        _ wanted: CaptionService?, among services: [(service: CaptionService, cues: [Cue])]
    ) -> (cues: [Cue], service: CaptionService?, warnings: [IngestWarning]) {
        let names = services.map(\.service.rawValue)
        if let wanted {
            guard let found = services.first(where: { $0.service == wanted }) else {
                let has = names.isEmpty ? "none has text" : "those with text: \(names.joined(separator: ", "))"
                return ([], wanted, [IngestWarning(kind: .noCueFound, line: nil, "the file carries no text in \(wanted.rawValue) (\(has))")])
            }
            return (found.cues, wanted, [])
        }
        guard let first = services.first else { return ([], nil, []) }
        guard services.count > 1 else { return (first.cues, first.service, []) }
        let others = names.dropFirst().joined(separator: ", ")
        return (
            first.cues, first.service,
            [
                IngestWarning(
                    kind: .servicesIgnored, line: nil,
                    "the file also carries \(others); only \(first.service.rawValue) is used (name another with service=, once per track)")
            ]
        )
    }
}
