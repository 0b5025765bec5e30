import HLS
import Testing

/// `CHARACTERISTICS` as a value: read from an attribute, written back, checked and ranked.
struct MediaCharacteristicsTests {
    struct Row: Sendable, CustomTestStringConvertible {
        let attribute: String?
        let values: [String]
        let written: String?
        let rank: Int
        var testDescription: String { attribute ?? "nil" }
    }

    static let rows: [Row] = [
        Row(attribute: nil, values: [], written: nil, rank: 0),
        Row(attribute: "", values: [], written: nil, rank: 0),
        Row(attribute: "public.machine-generated", values: ["public.machine-generated"], written: "public.machine-generated", rank: 0),
        // Spaces around items are not part of a UTI; repeats are dropped, the first kept.
        Row(
            attribute: " public.translation , public.easy-to-read,public.translation", values: ["public.translation", "public.easy-to-read"],
            written: "public.translation,public.easy-to-read", rank: 1),
        Row(
            attribute: "public.accessibility.transcribes-spoken-dialog,public.accessibility.describes-music-and-sound",
            values: ["public.accessibility.transcribes-spoken-dialog", "public.accessibility.describes-music-and-sound"],
            written: "public.accessibility.transcribes-spoken-dialog,public.accessibility.describes-music-and-sound", rank: 2),
    ]

    @Test(arguments: rows)
    func readsWritesAndRanks(_ row: Row) {
        let characteristics = MediaCharacteristics(attribute: row.attribute)
        #expect(characteristics.values == row.values)
        #expect(characteristics.attributeValue == row.written)
        #expect(characteristics.rank(forced: false) == row.rank)
        #expect(characteristics.rank(forced: true) == 3)
        #expect(MediaCharacteristics(attribute: characteristics.attributeValue) == characteristics)
    }

    @Test func wellFormedUTIsAreReverseDNSLabels() {
        for good in ["public.easy-to-read", "com.example.a1", "org.x-y.z"] { #expect(MediaCharacteristics.isWellFormed(good), "\(good)") }
        for bad in ["", "public", "public.", ".public", "public..x", "not a uti", "public.é", "a,b.c", "a\"b.c", "public.easy_to_read"] {
            #expect(!MediaCharacteristics.isWellFormed(bad), "\(bad)")
        }
    }

    @Test func theSDHPairComesFirstInUnions() {
        let made = MediaCharacteristics.sdh.union(
            MediaCharacteristics(values: [MediaCharacteristics.machineGenerated, MediaCharacteristics.transcribesSpokenDialog]))
        #expect(
            made.values == [MediaCharacteristics.transcribesSpokenDialog, MediaCharacteristics.describesMusicAndSound, MediaCharacteristics.machineGenerated])
        #expect(made.isSDH)
    }
}
