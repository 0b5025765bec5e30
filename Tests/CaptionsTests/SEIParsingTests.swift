import Containers
import Foundation
import TestSupport
import Testing

@testable import Captions

/// NAL units, SEI messages and A/53 cc_data, from bytes built in code.
struct SEIParsingTests {
    /// cc_data for two triplets (field 1 and a 708 packet), as a T.35 payload.
    static let t35: [UInt8] = [
        0xB5, 0x00, 0x31,  // country, ATSC provider
        0x47, 0x41, 0x39, 0x34,  // "GA94"
        0x03,  // cc_data
        0xC3, 0xFF,  // process_cc_data, cc_count 3; em_data
        0xFC, 0x94, 0x20,  // valid, field 1: RCL
        0xFE, 0x00, 0x00,  // valid, DTVCC: ignored by 608
        0xF8, 0x94, 0x20,  // not valid
        0xFF,
    ]

    @Test func parsesA53() {
        let data = CCData.parse(t35: Self.t35[...])
        #expect(
            data == [
                CCData(type: 0, valid: true, byte1: 0x94, byte2: 0x20), CCData(type: 2, valid: true, byte1: 0, byte2: 0),
                CCData(type: 0, valid: false, byte1: 0x94, byte2: 0x20),
            ])
        // cc_count says 3; data cut inside the third (or second) triplet gives the whole ones.
        for cut in 0...9 {
            let short = Array(Self.t35.prefix(Self.t35.count - 1 - cut))
            #expect(CCData.parse(t35: short[...]) == Array(data?.prefix((short.count - 10) / 3) ?? []), "cut \(cut)")
        }
        var other = Self.t35
        other[3] = 0x44  // "DTG1" and other identifiers are not A/53 captions
        #expect(CCData.parse(t35: other[...]) == nil)
    }

    @Test func severalMessagesWithLongSizesAndEmulationPrevention() {
        // An H.264 SEI NAL with: a 300-byte unregistered message (size coded 0xFF 0x2D) whose bytes
        // 00 00 02 need an emulation-prevention byte, then the captions.
        let t35 = Self.t35
        var rbsp: [UInt8] = [0x06, 0x05, 0xFF, 0x2D] + [0, 0, 2] + [UInt8](repeating: 0x11, count: 297)
        rbsp += [0x04, UInt8(t35.count)] + t35 + [0x80]
        let nal: [UInt8] = [0, 0, 0, 1] + CaptionedStream.escape(rbsp)
        #expect(nal.count > rbsp.count + 4, "an emulation-prevention byte was needed")
        let slice: [UInt8] = [0, 0, 1, 0x65, 0x88, 0x84]
        let data = CaptionDecoder.captionData(accessUnit: nal + slice, codec: .h264)
        #expect(data.first == CCData(type: 0, valid: true, byte1: 0x94, byte2: 0x20))
        #expect(data.count == 3)
    }

    /// Removing emulation prevention gives back what escaping made (H.264 §7.4.1: an escaped
    /// unit never holds 00 00 00-03 unescaped), on bytes dense in zeros and threes, and reads a
    /// raw unit as the byte-by-byte rule does (`00 00 03` drops the 03, and the count of zeros
    /// starts again after it).
    @Test func emulationPreventionComesOutWhereverItIs() {
        var state: UInt64 = 99
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        func model(_ nal: [UInt8]) -> [UInt8] {
            var out: [UInt8] = [], zeros = 0
            for byte in nal {
                if zeros >= 2 && byte == 3 {
                    zeros = 0
                    continue
                }
                out.append(byte)
                zeros = byte == 0 ? zeros + 1 : 0
            }
            return out
        }
        var out: [UInt8] = [9, 9, 9]
        for _ in 0..<2_000 {
            let rbsp = (0..<next(60)).map { _ in UInt8([0, 0, 0, 3, 1, 2, 0x80, 0xFF][next(8)]) }
            // Escaped bytes are read back whole (an RBSP that ends in zeros keeps them).
            let escaped = CaptionedStream.escape(rbsp)
            NALUnits.rbsp(escaped[...], into: &out)
            #expect(out == rbsp, "\(escaped)")
            // Raw bytes, from a slice not at the start of its array, as the byte rule reads them.
            let raw = [0x47] + (0..<next(60)).map { _ in UInt8([0, 0, 3, 3, 1][next(5)]) }
            NALUnits.rbsp(raw[1...], into: &out)
            #expect(out == model(Array(raw[1...])), "\(raw)")
            // An SEI is read where it lies exactly when its RBSP is its bytes.
            #expect(raw[1...].withUnsafeBufferPointer(NALUnits.hasEmulationPrevention) == (out != Array(raw[1...])), "\(raw)")
            #expect(escaped.withUnsafeBufferPointer(NALUnits.hasEmulationPrevention) == (escaped != rbsp), "\(escaped)")
        }
    }

    @Test func hevcPrefixAndSuffixSEI() {
        for type: UInt8 in [39, 40] {
            let nal: [UInt8] = [0, 0, 1, type << 1, 0x01, 0x04, UInt8(Self.t35.count)] + Self.t35 + [0x80]
            #expect(CaptionDecoder.captionData(accessUnit: nal, codec: .hevc).count == 3, "NAL type \(type)")
            #expect(CaptionDecoder.captionData(accessUnit: nal, codec: .h264).isEmpty, "not SEI for H.264")
        }
    }

    @Test func startCodesOfThreeAndFourBytes() {
        let units = NALUnits.split([0, 0, 0, 1, 9, 0xF0, 0, 0, 1, 6, 1, 2, 0, 0, 0, 1, 0x65, 7])
        #expect(units.count == 3)
        #expect(units.map(\.count) == [2, 3, 2])
    }

    @Test(.enabled(if: Tools.ffmpeg != nil, "ffmpeg is not installed"))
    func continuityErrorsAreTolerated() throws {
        var script = CaptionScript()
        script.popOn(["Before"], at: 5)
        script.send([CC608.command(0x2C)], at: 40)
        script.popOn(["After"], at: 60)
        script.send([CC608.command(0x2C)], at: 110)
        let file = try CaptionedStream.make(script: script, frames: 120, folder: try Scratch.make().path)
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: file)))
        // Drop a video packet in the middle of the file (its PES is lost, the rest is not).
        let drop = (bytes.count / 188 / 2) * 188
        bytes.removeSubrange(drop..<(drop + 188))
        let result = TransportStreamCaptions.decode([bytes[...]])
        #expect(result.services.first?.cues.map(\.text).contains("After") == true)
    }
}
