import Containers
import Foundation
import TestSupport
import Testing

/// A `trun` whose samples carry no per-sample fields declares a count the bytes do not bound:
/// samples beyond the bytes read are refused, so a 322-byte input can no longer make half a
/// million samples (the isobmff fuzzer's input, 4.35 s per run under the sanitizer).
struct ImplicitSamplesTests {
    static func split(_ name: String) throws -> (initialization: [UInt8], segment: [UInt8]) {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Fixtures.path("fuzz/isobmff/\(name)"))))
        let length = min(Int(bytes[0]) << 24 | Int(bytes[1]) << 16 | Int(bytes[2]) << 8 | Int(bytes[3]), bytes.count - 4)
        return (Array(bytes[4..<(4 + length)]), Array(bytes[(4 + length)...]))
    }

    @Test func moreImplicitSamplesThanBytesAreRefused() throws {
        let (initialization, segment) = try Self.split("slow-half-million-implicit-samples-in-322-bytes.mp4")
        let tracks = try ISOBMFF.tracks(initialization)
        #expect(throws: ContainerError.self) { try ISOBMFF.fragmentSamples(segment, tracks: tracks) }
        do {
            _ = try ISOBMFF.fragmentSamples(segment, tracks: tracks)
        } catch {
            #expect(error.description.contains("524288 samples with no per-sample fields, more than the"), "\(error)")
        }
    }
}
