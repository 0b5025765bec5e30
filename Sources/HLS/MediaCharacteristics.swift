/// The `CHARACTERISTICS` of a rendition (RFC 8216bis §4.4.6.1): Uniform Type Identifiers, in the
/// order written, each once.
///
/// "A quoted-string containing one or more Uniform Type Identifiers separated by comma (,)
/// characters. Each UTI indicates an individual characteristic of the Rendition." Text renditions
/// use the ones named below; any other well-formed UTI (`com.example.commentary`) is kept as
/// given.
public struct MediaCharacteristics: Sendable, Hashable, Codable {
    /// The UTIs, in order, without repeats.
    public private(set) var values: [String]

    /// Transcribes the dialogue (with ``describesMusicAndSound``: subtitles for the deaf and hard of hearing).
    public static let transcribesSpokenDialog = "public.accessibility.transcribes-spoken-dialog"
    /// Describes music and sound effects (with ``transcribesSpokenDialog``: SDH).
    public static let describesMusicAndSound = "public.accessibility.describes-music-and-sound"
    /// Edited for ease of reading.
    public static let easyToRead = "public.easy-to-read"
    /// Made by a machine (speech recognition, automatic translation): Apple's players label it "Generated".
    public static let machineGenerated = "public.machine-generated"
    /// A translation of the programme's spoken language: Apple's players label it "Translated".
    public static let translation = "public.translation"
    /// Describes the video: a characteristic of AUDIO renditions (audio description), never of text.
    public static let describesVideo = "public.accessibility.describes-video"

    /// No characteristics.
    public static let none = MediaCharacteristics(values: [])
    /// The SDH pair (Apple HLS Authoring Spec 4.5).
    public static let sdh = MediaCharacteristics(values: [transcribesSpokenDialog, describesMusicAndSound])

    /// `values` in order, repeats dropped (the first kept).
    public init(values: [String]) {
        var seen: Set<String> = []
        self.values = values.filter { seen.insert($0).inserted }
    }

    /// The characteristics an attribute value lists (items trimmed of spaces, empty ones dropped);
    /// nil for none.
    public init(attribute: String?) {
        let items = (attribute ?? "").split(separator: ",").map { piece -> String in
            var item = piece
            while item.first == " " { item.removeFirst() }
            while item.last == " " { item.removeLast() }
            return String(item)
        }
        self.init(values: items.filter { !$0.isEmpty })
    }

    /// The `CHARACTERISTICS` value to write, nil for none.
    public var attributeValue: String? { values.isEmpty ? nil : values.joined(separator: ",") }

    public var isEmpty: Bool { values.isEmpty }
    public func contains(_ uti: String) -> Bool { values.contains(uti) }

    /// Transcribes spoken dialogue (an SDH rendition, or half of one).
    public var isSDH: Bool { contains(Self.transcribesSpokenDialog) }

    /// These with `other`'s added after them.
    public func union(_ other: MediaCharacteristics) -> MediaCharacteristics { MediaCharacteristics(values: values + other.values) }

    /// Whether `text` is a UTI as HLS can carry one: reverse-DNS labels of letters, digits and `-`
    /// joined by dots (at least two labels), so no comma, quote, space or control character.
    public static func isWellFormed(_ text: String) -> Bool {
        let labels = text.split(separator: ".", omittingEmptySubsequences: false)
        return labels.count >= 2
            && labels.allSatisfy { label in
                !label.isEmpty && label.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-") }
            }
    }

    /// The rank among same-language renditions, general to specific (Apple HLS Authoring Spec
    /// 9.17): general (no accessibility characteristic; machine-generated and translated text are
    /// still general subtitles), easy-to-read, SDH, then forced.
    public func rank(forced: Bool) -> Int {
        if forced { return 3 }
        if isSDH || contains(Self.describesMusicAndSound) { return 2 }
        if contains(Self.easyToRead) { return 1 }
        return 0
    }

    public init(from decoder: Decoder) throws {
        self.init(values: try decoder.singleValueContainer().decode([String].self))
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(values)
    }
}
