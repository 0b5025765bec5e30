import Foundation
import Subweave
import Testing

/// A segment's name is the template with `{n}` replaced by the zero-padded number, then the
/// extension: held to a plain text substitution for templates with `{n}` anywhere.
struct SegmentNameTemplateTests {
    @Test(arguments: ["{n}", "seg-{n}", "{n}_a", "en.seg-{n}.part", "n{n}n", "{n}{", "x}{n}{n"])
    func aNameIsTheTemplateWithTheNumberInPlaceOfN(text: String) throws {
        guard let template = SegmentNameTemplate(text) else {
            #expect(text == "x}{n}{n" || text == "{n}{", "only templates with a stray brace or two {n} are refused")
            return
        }
        var numbers = [0, 7, 9, 10, 99, 100, 12_345, 99_999, 100_000, 123_456, Int.max]
        for power in 1...18 { numbers += [Int(pow(10.0, Double(power))) - 1, Int(pow(10.0, Double(power)))] }
        for number in numbers {
            for digits in [0, 1, 5, 6, 8, 12, 20] {
                for ext in ["vtt", "m4s", "p3.vtt", ""] {
                    let padded = String(repeating: "0", count: max(0, digits - String(number).count)) + String(number)
                    let expected = text.replacingOccurrences(of: "{n}", with: padded) + "." + ext
                    let name = template.name(number, digits: digits, extension: ext)
                    #expect(name == expected, "\(text) \(number) \(digits) \(ext)")
                    #expect(name.utf8.count == expected.utf8.count)
                }
            }
        }
    }
}
