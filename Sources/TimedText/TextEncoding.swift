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

    /// The encoding for a label such as `UTF8`, `cp1252`, `latin1` or `utf-16le` (case and
    /// punctuation are ignored); nil if unknown.
    public init?(label: String) {
        let key = label.lowercased().filter { $0.isLetter || $0.isNumber }
        let aliases: [String: TextEncoding] = [
            "utf8": .utf8, "utf16le": .utf16LE, "utf16be": .utf16BE, "utf32le": .utf32LE, "utf32be": .utf32BE,
            "windows1250": .windows1250, "cp1250": .windows1250, "windows1251": .windows1251, "cp1251": .windows1251,
            "windows1252": .windows1252, "cp1252": .windows1252, "windows1253": .windows1253, "cp1253": .windows1253,
            "windows1254": .windows1254, "cp1254": .windows1254, "windows1255": .windows1255, "cp1255": .windows1255,
            "windows1256": .windows1256, "cp1256": .windows1256, "windows1257": .windows1257, "cp1257": .windows1257,
            "windows1258": .windows1258, "cp1258": .windows1258,
            "iso88591": .iso88591, "latin1": .iso88591, "iso88592": .iso88592, "latin2": .iso88592,
            "iso885915": .iso885915, "latin9": .iso885915, "koi8r": .koi8R,
            "gb18030": .gb18030, "gbk": .gb18030, "gb2312": .gb18030, "cp936": .gb18030, "big5": .big5, "cp950": .big5,
            "shiftjis": .shiftJIS, "sjis": .shiftJIS, "cp932": .shiftJIS, "windows31j": .shiftJIS, "ms932": .shiftJIS, "mskanji": .shiftJIS,
            "euckr": .eucKR, "cp949": .eucKR, "uhc": .eucKR, "ksc56011987": .eucKR, "windows949": .eucKR,
            "eucjp": .eucJP, "iso2022jp": .iso2022JP, "csiso2022jp": .iso2022JP, "iso2022kr": .iso2022KR, "csiso2022kr": .iso2022KR,
            "iso88595": .iso88595, "cyrillic": .iso88595, "ibm866": .ibm866, "cp866": .ibm866, "866": .ibm866,
            "maccyrillic": .macCyrillic, "xmaccyrillic": .macCyrillic, "tis620": .tis620, "windows874": .tis620, "cp874": .tis620,
        ]
        guard let encoding = aliases[key] else { return nil }
        self = encoding
    }
}
