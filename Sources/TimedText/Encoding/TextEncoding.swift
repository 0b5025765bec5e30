/// A text encoding Subweave can read subtitle files in.
public enum TextEncoding: String, Sendable, CaseIterable {
    case utf8 = "utf-8"
    case utf16LE = "utf-16le"
    case utf16BE = "utf-16be"
    case utf32LE = "utf-32le"
    case utf32BE = "utf-32be"
    case windows1250 = "windows-1250"
    case windows1251 = "windows-1251"
    case windows1252 = "windows-1252"
    case windows1253 = "windows-1253"
    case windows1254 = "windows-1254"
    case windows1255 = "windows-1255"
    case windows1256 = "windows-1256"
    case windows1257 = "windows-1257"
    case windows1258 = "windows-1258"
    case iso88591 = "iso-8859-1"
    case iso88592 = "iso-8859-2"
    case iso885915 = "iso-8859-15"
    case koi8R = "koi8-r"
    case iso88595 = "iso-8859-5"
    /// Cyrillic, DOS (CP866).
    case ibm866 = "ibm866"
    /// Cyrillic, classic Mac OS.
    case macCyrillic = "x-mac-cyrillic"
    /// Thai (TIS-620, read as windows-874, its superset).
    case tis620 = "tis-620"
    /// Chinese, simplified (a superset of GB2312 and GBK).
    case gb18030 = "gb18030"
    /// Chinese, traditional.
    case big5 = "big5"
    /// Japanese: Shift_JIS read as CP932 (Windows-31J), the superset Windows writes (NEC and IBM
    /// extensions; 0x5C and 0x7E are `\` and `~`).
    case shiftJIS = "shift_jis"
    /// Japanese, EUC-JP.
    case eucJP = "euc-jp"
    /// Japanese, 7-bit ISO-2022-JP (escape sequences switch the character sets).
    case iso2022JP = "iso-2022-jp"
    /// Korean: EUC-KR read as CP949 (Unified Hangul Code), the superset Windows writes.
    case eucKR = "euc-kr"
    /// Korean, 7-bit ISO-2022-KR.
    case iso2022KR = "iso-2022-kr"

    /// The encoding for a label, as the WHATWG Encoding Standard reads it.
    ///
    /// That is what a browser does with a `charset`: `latin1`, `iso-8859-1`, `ascii` and `us-ascii` are windows-1252,
    /// `iso-8859-9` is windows-1254, `gb2312` and `gbk` are GBK (read here as GB18030, its
    /// superset), `utf-16` is UTF-16LE, and so on; case, spaces, `-`, `_`, `:` and `.` are
    /// ignored. Nil if unknown.
    public init?(label: String) {
        let key = label.lowercased().filter { $0.isLetter || $0.isNumber }
        guard let encoding = Self.labels[key] else { return nil }
        self = encoding
    }

    /// The WHATWG labels (https://encoding.spec.whatwg.org/#names-and-labels) of the encodings
    /// Subweave reads, with their punctuation taken out, and the Windows code page numbers.
    static let labels: [String: TextEncoding] = {
        let groups: [(TextEncoding, [String])] = [
            (.utf8, ["unicode-1-1-utf-8", "unicode11utf8", "unicode20utf8", "utf-8", "utf8", "x-unicode20utf8"]),
            (.utf16LE, ["csunicode", "iso-10646-ucs-2", "ucs-2", "unicode", "unicodefeff", "utf-16", "utf-16le"]),
            (.utf16BE, ["unicodefffe", "utf-16be"]),
            (.utf32LE, ["utf-32", "utf-32le"]), (.utf32BE, ["utf-32be"]),
            (
                .windows1252,
                [
                    "ansi_x3.4-1968", "ascii", "cp1252", "cp819", "csisolatin1", "ibm819", "iso-8859-1", "iso-ir-100", "iso8859-1", "iso88591",
                    "iso_8859-1", "iso_8859-1:1987", "l1", "latin1", "us-ascii", "windows-1252", "x-cp1252",
                ]
            ),
            (.windows1250, ["cp1250", "windows-1250", "x-cp1250"]),
            (.windows1251, ["cp1251", "windows-1251", "x-cp1251"]),
            (.windows1253, ["cp1253", "windows-1253", "x-cp1253"]),
            (
                .windows1254,
                [
                    "cp1254", "csisolatin5", "iso-8859-9", "iso-ir-148", "iso8859-9", "iso88599", "iso_8859-9", "iso_8859-9:1989", "l5", "latin5",
                    "windows-1254", "x-cp1254",
                ]
            ),
            (.windows1255, ["cp1255", "windows-1255", "x-cp1255"]),
            (.windows1256, ["cp1256", "windows-1256", "x-cp1256"]),
            (.windows1257, ["cp1257", "windows-1257", "x-cp1257"]),
            (.windows1258, ["cp1258", "windows-1258", "x-cp1258"]),
            (
                .iso88592,
                ["csisolatin2", "iso-8859-2", "iso-ir-101", "iso8859-2", "iso88592", "iso_8859-2", "iso_8859-2:1987", "l2", "latin2"]
            ),
            (.iso885915, ["csisolatin9", "iso-8859-15", "iso8859-15", "iso885915", "iso_8859-15", "l9", "latin9"]),
            (
                .iso88595,
                ["csisolatincyrillic", "cyrillic", "iso-8859-5", "iso-ir-144", "iso8859-5", "iso88595", "iso_8859-5", "iso_8859-5:1988"]
            ),
            (.koi8R, ["cskoi8r", "koi", "koi8", "koi8-r", "koi8_r"]),
            (.ibm866, ["866", "cp866", "csibm866", "ibm866"]),
            (.macCyrillic, ["x-mac-cyrillic", "x-mac-ukrainian", "maccyrillic"]),
            (.tis620, ["dos-874", "iso-8859-11", "iso8859-11", "iso885911", "tis-620", "windows-874", "cp874"]),
            (
                .gb18030,
                ["chinese", "csgb2312", "csiso58gb231280", "gb2312", "gb_2312", "gb_2312-80", "gbk", "iso-ir-58", "x-gbk", "gb18030", "cp936"]
            ),
            (.big5, ["big5", "big5-hkscs", "cn-big5", "csbig5", "x-x-big5", "cp950"]),
            (.shiftJIS, ["csshiftjis", "ms932", "ms_kanji", "shift-jis", "shift_jis", "sjis", "windows-31j", "x-sjis", "cp932"]),
            (.eucJP, ["cseucpkdfmtjapanese", "euc-jp", "x-euc-jp"]),
            (.iso2022JP, ["csiso2022jp", "iso-2022-jp"]),
            (
                .eucKR,
                [
                    "cseuckr", "csksc56011987", "euc-kr", "iso-ir-149", "korean", "ks_c_5601-1987", "ks_c_5601-1989", "ksc5601", "ksc_5601",
                    "windows-949", "cp949", "uhc",
                ]
            ),
            (.iso2022KR, ["csiso2022kr", "iso-2022-kr"]),
        ]
        var table: [String: TextEncoding] = [:]
        for (encoding, labels) in groups {
            for label in labels { table[label.lowercased().filter { $0.isLetter || $0.isNumber }] = encoding }
        }
        return table
    }()
}
