import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Text encoded by the C library's iconv (the tests' encoder: an implementation apart from the
/// decoders under test for the single-byte code pages).
public enum Iconv {
    /// `text` in `encoding` (an iconv name), or nil when a character cannot be written in it.
    public static func encode(_ text: String, to encoding: String) -> [UInt8]? {
        let converter = iconv_open(encoding, "UTF-8")
        guard converter != iconv_t(bitPattern: -1) else { return nil }
        defer { iconv_close(converter) }
        var input = Array(text.utf8)
        var output = [UInt8](repeating: 0, count: input.count * 4 + 64)
        var inLeft = input.count, outLeft = output.count
        let result = input.withUnsafeMutableBytes { inRaw in
            output.withUnsafeMutableBytes { outRaw -> Int in
                var inPointer = inRaw.baseAddress?.assumingMemoryBound(to: CChar.self)
                var outPointer = outRaw.baseAddress?.assumingMemoryBound(to: CChar.self)
                let r = iconv(converter, &inPointer, &inLeft, &outPointer, &outLeft)
                guard r != -1 else { return -1 }
                // Stateful encodings (ISO-2022) return to ASCII at the end.
                return iconv(converter, nil, nil, &outPointer, &outLeft)
            }
        }
        guard result != -1, inLeft == 0 else { return nil }
        return Array(output[0..<(output.count - outLeft)])
    }

    /// The iconv name of a Python codec name used by the corpus manifest.
    public static func name(ofCodec codec: String) -> String {
        let table: [String: String] = [
            "iso8859_2": "ISO-8859-2", "iso8859_5": "ISO-8859-5", "koi8_r": "KOI8-R", "mac_cyrillic": "MAC-CYRILLIC",
            "tis_620": "TIS-620", "euc_jp": "EUC-JP", "iso2022_jp": "ISO-2022-JP", "euc_kr": "EUC-KR", "iso2022_kr": "ISO-2022-KR",
        ]
        return table[codec] ?? codec.uppercased()
    }
}

/// The real-text encoding corpus (Fixtures/subtitles/encodings/corpus.tar.xz, made by
/// make-corpus.py), extracted once.
public enum EncodingCorpus {
    /// One short subtitle line of `Fixtures/subtitles/encodings/dialogue.tsv` (written for the
    /// tests): its language, the codecs to encode it in, and whether it is of the training half.
    public struct Line: Sendable {
        public let language: String
        public let codecs: [String]
        public let text: String
        public let split: String
    }

    public static let dialogue: [Line] = {
        guard let text = try? String(contentsOfFile: Fixtures.path("subtitles/encodings/dialogue.tsv"), encoding: .utf8) else { return [] }
        var lines: [Line] = []
        for (index, row) in text.split(separator: "\n").filter({ !$0.hasPrefix("#") }).enumerated() {
            let fields = row.split(separator: "\t", maxSplits: 2).map(String.init)
            guard fields.count == 3 else { continue }
            lines.append(
                Line(language: fields[0], codecs: fields[1].split(separator: ",").map(String.init), text: fields[2], split: index % 2 == 0 ? "train" : "test"))
        }
        return lines
    }()

    public struct Entry: Sendable {
        public let split: String
        public let language: String
        public let path: String
        public let codecs: [String]
    }

    public static let entries: [Entry] = {
        guard let folder = try? Scratch.make().path,
            (try? Tools.run("/usr/bin/tar", ["-xJf", Fixtures.path("subtitles/encodings/corpus.tar.xz"), "-C", folder]))?.status == 0,
            let manifest = try? String(contentsOfFile: folder + "/manifest.tsv", encoding: .utf8)
        else { return [] }
        return manifest.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: "\t").map(String.init)
            guard fields.count == 3 else { return nil }
            return Entry(
                split: String(fields[0].prefix { $0 != "/" }), language: fields[1], path: folder + "/" + fields[0],
                codecs: fields[2].split(separator: ",").map(String.init))
        }
    }()
}
