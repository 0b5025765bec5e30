import Containers
import Timebase
import TimedText

/// DVB teletext subtitles (ETSI EN 300 472 carriage, EN 300 706 teletext) as cues, per page.
///
/// Each PES packet (data identifier 0x10–0x1F) carries data units: 0x02 (teletext) and 0x03
/// (teletext subtitles) of 44 bytes, a framing code and a packet: a magazine and row address
/// (Hamming 8/4), then 40 bytes. Row 0 is a page header: the page number, the control bits (C4
/// erase page, C5 newsflash, C6 subtitle, C12–C14 national option) and the header text; rows
/// 1–23 are the page's text (odd parity, the Latin G0 set with the page's national option).
/// A subtitle page is shown from the PTS of the PES that carries it until the page is sent again
/// (an empty page clears it). On a page, spacing attributes take a cell: colours (0x00–0x07)
/// last to the row's end, and a subtitle page shows only what is between start box (0x0B) and
/// end box (0x0A).
package struct TeletextDecoder {
    /// A page being received or shown.
    struct Page {
        var rows: [Int: [UInt8]] = [:]
        var subtitle = false
        var national = 0
        /// The page's own character set designation (X/28/0 or X/28/4), group × 8 + option.
        var designation: Int?
        var magazine = 8
    }

    /// The page number each magazine is receiving (its header last seen), if any.
    private var receiving: [Int: String] = [:]
    /// Each magazine's default character set designation (M/29/0 or M/29/4).
    private var magazineDesignation: [Int: Int] = [:]
    private var pages: [String: Page] = [:]
    /// Pages that got a packet in the PES being read.
    private var touched: Set<String> = []
    /// What each page shows now: its text and since when.
    private var shown: [String: (text: String, settings: CueSettings, since: MediaTime)] = [:]
    /// The cues of each page (`888`), in order.
    package private(set) var cues: [String: [Cue]] = [:]
    /// Pages whose header said subtitle (C6).
    package private(set) var subtitlePages: Set<String> = []
    /// Pages the stream's descriptor lists as subtitles, shown even without C6.
    ///
    /// Other pages (a broadcast's news and index pages) are received but never made into cues.
    package var announcedSubtitlePages: Set<String> = []
    /// Bytes that failed their parity or Hamming check (read as spaces or skipped).
    package private(set) var damagedBytes = 0
    /// PES packets whose data identifier is not EBU data (0x10–0x1F): skipped.
    package private(set) var foreignPackets = 0
    /// Characters of pages whose designated G0 set is not decoded (Arabic, Hebrew), shown as U+FFFD.
    package private(set) var undecodedCharacters = 0
    /// The first page text shown, and when.
    package private(set) var firstShown: (page: String, time: MediaTime)?

    package init() {}

    /// Reads one PES packet's payload, shown from `time`.
    package mutating func add(_ payload: ArraySlice<UInt8>, time: MediaTime) {
        guard let identifier = payload.first, (0x10...0x1F).contains(identifier) else {
            foreignPackets += 1
            return
        }
        var i = payload.startIndex + 1
        while i + 2 <= payload.endIndex {
            let id = payload[i], length = Int(payload[i + 1])
            let end = min(payload.endIndex, i + 2 + length)
            if (id == 0x02 || id == 0x03), length == 0x2C, end - i == 46 { packet(payload[(i + 4)..<end]) }
            i += 2 + length
        }
        for key in touched.sorted() { show(key, at: time) }
        touched = []
    }

    /// One teletext packet: address and 40 bytes, as sent (each byte reversed).
    private mutating func packet(_ bytes: ArraySlice<UInt8>) {
        let b = bytes.map { TeletextCoding.reversed[Int($0)] }
        guard let a1 = TeletextCoding.hamming(b[0]), let a2 = TeletextCoding.hamming(b[1]) else {
            damagedBytes += 1
            return
        }
        let magazine = a1 & 0x07 == 0 ? 8 : a1 & 0x07
        let row = (a1 >> 3) | (a2 << 1)
        if row == 0 {
            header(magazine: magazine, Array(b[2...]))
        } else if row <= 23, let key = receiving[magazine] {
            pages[key, default: Page()].rows[row] = Array(b[2..<42])
            touched.insert(key)
        } else if row == 28 || row == 29, let designation = Self.designation(Array(b[2..<8])) {
            // X/28/0 and X/28/4 designate the page's sets; M/29/0 and M/29/4 the magazine's.
            if row == 29 {
                magazineDesignation[magazine] = designation
            } else if let key = receiving[magazine] {
                pages[key]?.designation = designation
                touched.insert(key)
            }
        }
    }

    /// The default G0 set designation of an X/28 or M/29 packet of format 1 (designation code 0
    /// or 4): bits 8–14 of its first Hamming 24/18 triplet; nil for another kind of packet.
    static func designation(_ d: [UInt8]) -> Int? {
        guard let code = TeletextCoding.hamming(d[0]), code == 0 || code == 4,
            let triplet = TeletextCoding.hamming2418(d[1], d[2], d[3])
        else { return nil }
        return triplet >> 7 & 0x7F
    }

    /// A page header: the page number, its control bits; it ends the magazine's previous page.
    private mutating func header(magazine: Int, _ d: [UInt8]) {
        let nibbles = d[0..<8].map(TeletextCoding.hamming)
        guard nibbles.allSatisfy({ $0 != nil }) else {
            damagedBytes += 1
            receiving[magazine] = nil
            return
        }
        let n = nibbles.map { $0 ?? 0 }
        let units = n[0], tens = n[1]
        // Page FF is a time-filling header: it ends the page before it and starts none.
        guard !(units == 0x0F && tens == 0x0F) else {
            receiving[magazine] = nil
            return
        }
        let key = TransportStream.TeletextPageEntry.number(magazine: magazine, pageByte: UInt8(tens << 4 | units))
        let erase = n[3] & 0x08 != 0
        var page = erase ? Page() : (pages[key] ?? Page())
        page.magazine = magazine
        if erase { page.designation = nil }
        page.subtitle = n[5] & 0x08 != 0
        // C12, C13 and C14 are bits 1-3 of the last control nibble; C12 is the option's high bit.
        let c = n[7]
        page.national = (c >> 1 & 1) << 2 | (c >> 2 & 1) << 1 | (c >> 3 & 1)
        if page.subtitle { subtitlePages.insert(key) }
        pages[key] = page
        receiving[magazine] = key
        touched.insert(key)
    }

    /// Shows page `key` as it is now, from `time`.
    private mutating func show(_ key: String, at time: MediaTime) {
        guard let page = pages[key], page.subtitle || announcedSubtitlePages.contains(key) || shown[key] != nil else { return }
        let (text, settings) = render(page)
        if let current = shown[key] {
            if current.text == text && current.settings == settings { return }
            if time > current.since {
                cues[key, default: []].append(Cue(start: current.since, end: time, settings: current.settings, text: current.text))
            }
            shown[key] = nil
        }
        if !text.isEmpty {
            shown[key] = (text, settings, time)
            if firstShown == nil { firstShown = (key, time) }
        }
    }

    /// What each page shows now, as a cue ending at `time` (pages shown since `time` or later
    /// are left out).
    package func shownCues(at time: MediaTime) -> [(page: String, cue: Cue)] {
        shown.keys.sorted().compactMap { key in
            guard let current = shown[key], time > current.since else { return nil }
            return (key, Cue(start: current.since, end: time, settings: current.settings, text: current.text))
        }
    }

    /// The pages showing text now.
    package var shownPages: Set<String> { Set(shown.keys) }

    /// Ends what is shown at `end`.
    package mutating func finish(at end: MediaTime) {
        for key in shown.keys.sorted() {
            guard let current = shown[key], end > current.since else { continue }
            cues[key, default: []].append(Cue(start: current.since, end: end, settings: current.settings, text: current.text))
        }
        shown = [:]
    }

    /// A page's rows as cue text and placement.
    mutating func render(_ page: Page) -> (String, CueSettings) {
        var lines: [(row: Int, text: String)] = []
        for row in page.rows.keys.sorted() {
            let code = ((page.designation ?? magazineDesignation[page.magazine] ?? 0) & ~7) | page.national
            let text = line(page.rows[row] ?? [], set: TeletextCharacters.g0(code: code), boxed: page.subtitle)
            if !text.isEmpty { lines.append((row, text)) }
        }
        guard let first = lines.first, let last = lines.last else { return ("", CueSettings()) }
        let settings = TeletextRows.placement(firstRow: first.row, lastRow: last.row, rows: 23)
        return (lines.map(\.text).joined(separator: "\n"), settings)
    }

    /// One row: characters of the G0 set with the page's national option, spacing attributes as
    /// spaces, colours as WebVTT classes, only boxed text on a subtitle page; spaces collapsed.
    mutating func line(_ bytes: [UInt8], national: Int, boxed: Bool) -> String {
        line(bytes, set: TeletextCharacters.g0(code: national), boxed: boxed)
    }

    /// One row read with a G0 `set` (the characters of 0x20–0x7F); nil (a set not decoded)
    /// shows each character as U+FFFD.
    mutating func line(_ bytes: [UInt8], set: [Character]?, boxed: Bool) -> String {
        var row = TeletextRows.Row()
        var colour: String?
        var inBox = !boxed
        for byte in bytes {
            guard let code = TeletextCoding.parity(byte) else {
                damagedBytes += 1
                if inBox { row.space() }
                continue
            }
            if code < 0x20 {
                switch code {
                case 0x00...0x07: colour = TeletextRows.colourClasses[Int(code)]
                case 0x0A: inBox = !boxed
                case 0x0B: inBox = true
                default: break
                }
                if inBox { row.space() }
                continue
            }
            guard inBox else { continue }
            if code == 0x20 {
                row.space()
                continue
            }
            if let set {
                row.append(set[Int(code) - 0x20], TeletextRows.Style(colour: colour))
            } else {
                undecodedCharacters += 1
                row.append("\u{FFFD}", TeletextRows.Style(colour: colour))
            }
        }
        return row.cueText
    }

}
