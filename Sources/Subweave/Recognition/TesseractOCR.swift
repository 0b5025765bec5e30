import Foundation
import Pictures
import Platform
import Timebase

/// Text read from pictures by Tesseract (Debian `tesseract-ocr` and its language packages), run
/// as a process as ffmpeg is for sync: found by `SUBWEAVE_TESSERACT` or on PATH.
///
/// Pictures go to Tesseract a page at a time (up to ``pageSize`` stacked one above the other,
/// paper between them), so a film's thousand subtitles are a few dozen runs, not a thousand; each
/// word comes back with its box and confidence, and a line belongs to the picture its box lies
/// in. Each run is bounded: stopped after ``timeout`` seconds without finishing.
package struct TesseractOCR: Sendable {
    /// The executable.
    package let executable: String
    /// Tesseract's name of the language its data reads (`eng`, `fra`, `deu`).
    package let language: String
    /// How long one page may take, in seconds.
    package var timeout: Double = 120
    /// Pictures per page.
    package static let pageSize = 24

    /// What one picture says.
    package struct Reading: Sendable, Equatable {
        /// Its lines, top to bottom.
        package var lines: [String]
        /// The mean of its words' confidences, weighted by their lengths (0-100); nil when no
        /// word was read.
        package var confidence: Double?
    }

    /// Tesseract for `language` (a BCP 47 tag): the executable and its language data checked now.
    ///
    /// Throws ``SubweaveError/missingTool(name:purpose:)`` when there is no Tesseract, and
    /// ``SubweaveError/unsupported(_:)`` naming the package to install when its language data is
    /// not there (or no Tesseract language reads the tag).
    package init(language tag: LanguageTag) throws(SubweaveError) {
        let environment = ProcessInfo.processInfo.environment
        let given = environment["SUBWEAVE_TESSERACT"].flatMap { $0.isEmpty ? nil : $0 }
        guard let found = given.map({ FileSystem.isExecutable($0) ? $0 : nil }) ?? Self.onPath("tesseract") else {
            throw .missingTool(name: "tesseract", purpose: "read the text of bitmap subtitles")
        }
        guard let language = Self.tesseractLanguage(tag) else {
            throw .unsupported(MessageText("no Tesseract language data reads \(tag.description); give the track the language its pictures are in"))
        }
        let installed = try Self.languages(of: found)
        guard installed.contains(language) else {
            throw .unsupported(
                MessageText(
                    "Tesseract (\(found)) has no \(language) language data to read \(tag.description) subtitles: install tesseract-ocr-\(language) (it has \(installed.sorted().joined(separator: ", ")))"
                ))
        }
        executable = found
        self.language = language
    }

    /// An executable named `name` in a folder of PATH.
    static func onPath(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first { FileSystem.isExecutable($0) }
    }

    /// Tesseract's names for the languages of BCP 47 primary subtags it has data for.
    static let languageNames: [String: String] = [
        "en": "eng", "fr": "fra", "de": "deu", "es": "spa", "it": "ita", "pt": "por", "nl": "nld", "sv": "swe", "da": "dan", "no": "nor",
        "nb": "nor", "nn": "nor", "fi": "fin", "pl": "pol", "cs": "ces", "sk": "slk", "sl": "slv", "hr": "hrv", "sr": "srp", "ru": "rus",
        "uk": "ukr", "el": "ell", "tr": "tur", "hu": "hun", "ro": "ron", "bg": "bul", "et": "est", "lv": "lav", "lt": "lit", "ca": "cat",
        "eu": "eus", "gl": "glg", "is": "isl", "ga": "gle", "cy": "cym", "ja": "jpn", "ko": "kor", "ar": "ara", "he": "heb", "hi": "hin",
        "th": "tha", "vi": "vie", "id": "ind", "ms": "msa", "fa": "fas",
    ]

    /// The Tesseract language for `tag` (Chinese by script: `chi_sim`, `chi_tra`).
    static func tesseractLanguage(_ tag: LanguageTag) -> String? {
        let text = tag.description.lowercased()
        let primary = text.split(separator: "-").first.map(String.init) ?? text
        if primary == "zh" {
            return text.contains("hant") || text.hasSuffix("-tw") || text.hasSuffix("-hk") ? "chi_tra" : "chi_sim"
        }
        if let name = languageNames[primary] { return name }
        // ISO 639-2 codes, as DVB descriptors and VobSub indexes give them (B and T forms).
        let bibliographic = ["fre": "fra", "ger": "deu", "dut": "nld", "cze": "ces", "gre": "ell", "rum": "ron", "slo": "slk", "ice": "isl", "wel": "cym"]
        if let name = bibliographic[primary] { return name }
        if primary == "chi" || primary == "zho" { return "chi_sim" }
        return Set(languageNames.values).contains(primary) ? primary : nil
    }

    /// The languages `executable` has data for (`tesseract --list-langs`).
    static func languages(of executable: String) throws(SubweaveError) -> Set<String> {
        let result = try run(executable, ["--list-langs"], input: [], timeout: 30)
        let text = String(decoding: result.output + result.errors, as: UTF8.self)
        return Set(
            text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty && !$0.contains(" ") && !$0.hasSuffix(":") })
    }

    /// Reads `images`, a page at a time; one reading per image, in order.
    package func read(_ images: [OCRImage]) throws(SubweaveError) -> [Reading] {
        var readings: [Reading] = []
        var start = 0
        while start < images.count {
            let page = Array(images[start..<min(images.count, start + Self.pageSize)])
            readings += try read(page: page)
            start += page.count
        }
        return readings
    }

    /// One page: the images stacked, one Tesseract run, its TSV words put back on their images.
    func read(page images: [OCRImage]) throws(SubweaveError) -> [Reading] {
        let (stack, tops) = OCRImage.stacked(images)
        // psm 6: one block of uniform text (the stack's lines, gaps between them).
        let result = try Self.run(executable, ["stdin", "stdout", "-l", language, "--psm", "6", "tsv"], input: stack.pgm, timeout: timeout)
        guard result.status == 0 else {
            let said = String(decoding: result.errors.prefix(2000), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            throw .unsupported(
                MessageText("Tesseract (\(executable)) failed (exit status \(result.status)) reading \(images.count) subtitle pictures: \(said)"))
        }
        return Self.readings(tsv: String(decoding: result.output, as: UTF8.self), tops: tops, heights: images.map(\.height))
    }

    /// Tesseract's TSV (level, page, block, paragraph, line, word, left, top, width, height,
    /// confidence, text) put back on the images that begin at rows `tops`.
    static func readings(tsv: String, tops: [Int], heights: [Int]) -> [Reading] {
        struct Word {
            let line: String
            let top: Int
            let height: Int
            let left: Int
            let confidence: Double
            let text: String
        }
        var words: [Word] = []
        for row in tsv.split(separator: "\n").dropFirst() {
            let fields = row.split(separator: "\t", maxSplits: 11, omittingEmptySubsequences: false)
            guard fields.count == 12, fields[0] == "5", let left = Int(fields[6]), let top = Int(fields[7]), let height = Int(fields[9]),
                let confidence = Double(fields[10])
            else { continue }
            let text = corrected(String(fields[11]).trimmingCharacters(in: .whitespaces))
            guard !text.isEmpty else { continue }
            words.append(Word(line: "\(fields[2]).\(fields[3]).\(fields[4])", top: top, height: height, left: left, confidence: confidence, text: text))
        }
        var readings = [Reading](repeating: Reading(lines: [], confidence: nil), count: tops.count)
        // Lines in the order Tesseract found them; a line's image is the one its middle row lies in.
        var order: [String] = []
        var byLine: [String: [Word]] = [:]
        for word in words {
            if byLine[word.line] == nil { order.append(word.line) }
            byLine[word.line, default: []].append(word)
        }
        var weighted = [Double](repeating: 0, count: tops.count), weights = [Double](repeating: 0, count: tops.count)
        var placedLines: [[(top: Int, text: String)]] = Array(repeating: [], count: tops.count)
        for key in order {
            guard let lineWords = byLine[key]?.sorted(by: { $0.left < $1.left }), let first = lineWords.first else { continue }
            let middle = lineWords.map { $0.top + $0.height / 2 }.reduce(0, +) / lineWords.count
            guard let image = tops.indices.last(where: { tops[$0] <= middle }), middle < tops[image] + heights[image] else { continue }
            placedLines[image].append((first.top, lineWords.map(\.text).joined(separator: " ")))
            for word in lineWords {
                let weight = Double(word.text.count)
                weighted[image] += max(0, word.confidence) * weight
                weights[image] += weight
            }
        }
        for i in readings.indices {
            readings[i].lines = placedLines[i].sorted { $0.top < $1.top }.map(\.text)
            readings[i].confidence = weights[i] > 0 ? weighted[i] / weights[i] : nil
        }
        return readings
    }

    /// A word with OCR's best-known confusion undone: a capital I read as a vertical bar (`|`,
    /// `|'m`), which no subtitle writes as a word.
    static func corrected(_ word: String) -> String {
        guard word.hasPrefix("|") else { return word }
        let rest = word.dropFirst()
        return rest.isEmpty || rest.first == "'" || rest.first == "\u{2019}" ? "I" + rest : word
    }

    /// What a bounded run gave.
    struct RunResult {
        let status: Int32
        let output: [UInt8]
        let errors: [UInt8]
    }

    /// Runs `executable` with `arguments`, `input` on its standard input, stopped after
    /// `timeout` seconds; output bounded at 64 MiB, errors at 64 KiB.
    static func run(_ executable: String, _ arguments: [String], input: [UInt8], timeout: Double) throws(SubweaveError) -> RunResult {
        let child: ChildProcess
        do { child = try ChildProcess.launch(executable, arguments) } catch {
            throw .missingTool(name: "tesseract", purpose: "read the text of bitmap subtitles (\(error.message))")
        }
        child.watch(stallLimit: timeout)
        let outputs = ProcessOutputs()
        let group = DispatchGroup()
        for stream in [0, 1] {
            group.enter()
            Thread {
                // Past its bound the output is not Tesseract's answer: the run is stopped.
                outputs.set(stream, child.readAll(errors: stream == 1, limit: stream == 0 ? 64 << 20 : 64 << 10, stopPastLimit: stream == 0))
                group.leave()
            }.start()
        }
        _ = child.write(input)
        child.closeInput()
        group.wait()
        let status = child.waitForExit()
        if child.stalled {
            throw .unsupported(MessageText("Tesseract (\(executable)) took more than \(timeout) s without finishing, and was stopped"))
        }
        return RunResult(status: status, output: outputs.get(0), errors: outputs.get(1))
    }
}

/// The two streams a run's readers fill, one thread each.
private final class ProcessOutputs: @unchecked Sendable {
    private let lock = NSLock()
    private var streams: [[UInt8]] = [[], []]

    func set(_ index: Int, _ bytes: [UInt8]) {
        lock.lock()
        streams[index] = bytes
        lock.unlock()
    }

    func get(_ index: Int) -> [UInt8] {
        lock.lock()
        defer { lock.unlock() }
        return streams[index]
    }
}
