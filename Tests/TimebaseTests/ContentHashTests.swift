import Testing
import Timebase

/// A hash added in pieces is the hash of the text the pieces make: records kept on disk are
/// keyed by the text, however a run builds it.
struct ContentHashTests {
    @Test(arguments: [Int64.min, Int64.min + 1, -1_000_000_007, -10, -9, -1, 0, 1, 9, 10, 99, 100, 8_589_934_592, Int64.max])
    func aDecimalIsItsDigits(_ number: Int64) {
        var text = ContentHash(), pieces = ContentHash()
        text.add("\(number)")
        pieces.add(decimal: number)
        pieces.add(byte: 0xFF)
        #expect(pieces == text, "\(number)")
    }

    @Test func unsignedNumbersAndIntsToo() {
        for number in [UInt64.max, UInt64.max / 10, 0, 7] {
            var text = ContentHash(), pieces = ContentHash()
            text.add("\(number)")
            pieces.add(decimal: number)
            pieces.add(byte: 0xFF)
            #expect(pieces == text, "\(number)")
        }
        for number in [Int.min, Int.max, -1, 0] {
            var text = ContentHash(), pieces = ContentHash()
            text.add("x\(number)")
            pieces.add(piece: "x")
            pieces.add(decimal: number)
            pieces.add(byte: 0xFF)
            #expect(pieces == text, "\(number)")
        }
    }

    @Test func piecesAreTheWholeText() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let numbers = (0..<Int.random(in: 1...5, using: &generator)).map { _ in
                Int64.random(in: Int64.min...Int64.max, using: &generator) >> Int64.random(in: 0...63, using: &generator)
            }
            var text = ContentHash(), pieces = ContentHash()
            text.add("été/s\u{0}" + numbers.map { "\($0)" }.joined(separator: "\u{0}"))
            pieces.add(piece: "été/s")
            for number in numbers {
                pieces.add(byte: 0)
                pieces.add(decimal: number)
            }
            pieces.add(byte: 0xFF)
            #expect(pieces == text, "\(numbers)")
        }
    }
}
