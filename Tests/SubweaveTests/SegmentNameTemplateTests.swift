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
        for (number, digits) in [(0, 5), (7, 5), (12_345, 5), (123_456, 5), (42, 8), (99_999, 6)] {
            let padded = String(repeating: "0", count: max(0, digits - String(number).count)) + String(number)
            let expected = text.replacingOccurrences(of: "{n}", with: padded) + ".vtt"
            #expect(template.name(number, digits: digits, extension: "vtt") == expected, "\(text) \(number)")
        }
    }
}
