import TimedText

/// An in-band caption service: CEA-608's CC1 to CC4 (CTA-608-E: field 1 carries CC1/CC2, field 2
/// CC3/CC4; the data-channel bit of the control codes selects the first or second of a field), a
/// CEA-708 DTVCC service, SERVICE1 to SERVICE63 (HLS's INSTREAM-ID spelling), a DVB teletext
/// subtitle page, written as viewers key it: `888`, `8A0` (a magazine 1–8 and two hexadecimal
/// digits), or a DVB subtitle stream (EN 300 743, pictures read by OCR), named by its PID in four
/// hexadecimal digits as analysers print it: `DVB0104` for PID 0x104.
public struct CaptionService: RawRepresentable, Hashable, Sendable, Comparable, Codable, CustomStringConvertible {
    /// What carries a service.
    public enum Kind: Int, Sendable, Comparable {
        case cea608, cea708, teletext, dvbSubtitles

        public static func < (a: Kind, b: Kind) -> Bool { a.rawValue < b.rawValue }
    }

    public let rawValue: String
    /// The 708 service number (1–63), or nil for a 608 channel, a teletext page or a DVB stream.
    public let serviceNumber: Int?
    public let kind: Kind

    public init?(rawValue: String) {
        let upper = rawValue.uppercased()
        if ["CC1", "CC2", "CC3", "CC4"].contains(upper) {
            self.init(upper, kind: .cea608)
        } else if upper.hasPrefix("SERVICE"), let n = Int(upper.dropFirst(7)), (1...63).contains(n), String(n) == upper.dropFirst(7) {
            self.init("SERVICE\(n)", kind: .cea708, number: n)
        } else if let page = Self.teletext(upper) {
            self = page
        } else if upper.hasPrefix("DVB"), upper.count == 7, let pid = UInt16(upper.dropFirst(3), radix: 16), let stream = Self.dvbSubtitles(pid: pid) {
            self = stream
        } else {
            return nil
        }
    }

    private init(_ name: String, kind: Kind, number: Int? = nil) {
        rawValue = name
        self.kind = kind
        serviceNumber = number
    }

    /// Whether it is a DVB teletext page.
    public var isTeletext: Bool { kind == .teletext }
    /// Whether it is a DVB subtitle stream (pictures).
    public var isDVBSubtitles: Bool { kind == .dvbSubtitles }
    /// Whether HLS can declare it in-band (`CLOSED-CAPTIONS`, `INSTREAM-ID`): CEA-608 and 708
    /// only; teletext pages and DVB subtitles reach players only as subtitle renditions.
    public var isDeclarable: Bool { kind == .cea608 || kind == .cea708 }

    /// The teletext page `number` (`888`, `8A0`: a magazine digit 1–8 and two hexadecimal
    /// digits), if it is one.
    public static func teletext(_ number: String) -> CaptionService? {
        let scalars = Array(number.unicodeScalars)
        guard scalars.count == 3, ("1"..."8").contains(scalars[0]), scalars.dropFirst().allSatisfy({ $0.properties.isASCIIHexDigit }) else {
            return nil
        }
        return CaptionService(number.uppercased(), kind: .teletext)
    }

    /// The DVB subtitle stream on `pid` (a 13-bit PID: 0x0010–0x1FFE carry elementary streams).
    public static func dvbSubtitles(pid: UInt16) -> CaptionService? {
        guard (0x0010...0x1FFE).contains(pid) else { return nil }
        let digits = String(pid, radix: 16, uppercase: true)
        return CaptionService("DVB" + String(repeating: "0", count: 4 - digits.count) + digits, kind: .dvbSubtitles)
    }

    /// The PID of a DVB subtitle stream.
    public var pid: UInt16? { isDVBSubtitles ? UInt16(rawValue.dropFirst(3), radix: 16) : nil }

    public static let cc1 = CaptionService("CC1", kind: .cea608), cc2 = CaptionService("CC2", kind: .cea608)
    public static let cc3 = CaptionService("CC3", kind: .cea608), cc4 = CaptionService("CC4", kind: .cea608)

    /// A 708 service, 1–63.
    public static func dtvcc(_ number: Int) -> CaptionService? { CaptionService(rawValue: "SERVICE\(number)") }

    /// Every CEA service: the four 608 channels, then the 63 708 services (teletext pages and DVB
    /// subtitle streams are not listed: they are found in the stream).
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
    public var isDTVCC: Bool { kind == .cea708 }

    /// The line-21 field that carries a 608 channel: 1 for CC1 and CC2, 2 for CC3 and CC4; nil
    /// for any other service.
    public var field: Int? {
        guard kind == .cea608 else { return nil }
        return self == .cc1 || self == .cc2 ? 1 : 2
    }

    public var description: String { rawValue }

    /// The service as messages name it: `CC1`, `SERVICE1`, `teletext page 888`, `DVB subtitles
    /// DVB0104`.
    public var label: String {
        switch kind {
        case .cea608, .cea708: return rawValue
        case .teletext: return "teletext page \(rawValue)"
        case .dvbSubtitles: return "DVB subtitles \(rawValue)"
        }
    }

    /// How its renditions are read (`ingest_format`) and named in identities: `cea608`,
    /// `cea708`, `teletext` or `dvbsub_ocr`.
    public var family: String {
        switch kind {
        case .cea608: return "cea608"
        case .cea708: return "cea708"
        case .teletext: return "teletext"
        case .dvbSubtitles: return "dvbsub_ocr"
        }
    }

    /// 608 channels first, then 708 services by number, then teletext pages, then DVB subtitle
    /// streams by PID.
    public static func < (a: CaptionService, b: CaptionService) -> Bool {
        guard a.kind == b.kind else { return a.kind < b.kind }
        if let x = a.serviceNumber, let y = b.serviceNumber { return x < y }
        return a.rawValue < b.rawValue
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
