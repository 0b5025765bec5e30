import Timebase
import TimedText

/// The CEA-708 side of one video stream: cc_data of types 2 and 3 in presentation order →
/// DTVCC packets → service blocks → one decoder per service (SERVICE1–SERVICE63).
package struct DTVCCDecoder {
    private var assembler = DTVCCPacketAssembler()
    /// By service number; `active` lists the numbers seen, in the order they first came.
    private var decoders = [ServiceDecoder708?](repeating: nil, count: 64)
    private var active: [Int] = []
    /// Services in which a printable character has been written.
    package private(set) var servicesWithText: Set<CaptionService> = []

    package init() {}

    /// Packets cut short and sequence numbers skipped: a damaged stream, said in the report.
    package var truncatedPackets: Int { assembler.truncatedPackets }
    package var sequenceGaps: Int { assembler.sequenceGaps }

    /// What the services lost: commands cut off by the end of their block, and characters
    /// written past the widest row a window can have (``Window708/maximumRowLength``).
    package var serviceLosses: (truncatedCommands: Int, droppedCharacters: Int) {
        decoders.reduce((0, 0)) { total, decoder in
            guard let decoder else { return total }
            return (total.0 + decoder.truncatedCommands, total.1 + decoder.droppedCharacters)
        }
    }

    /// Feeds one valid cc_data pair of type 2 or 3, carried by the frame shown at `time`.
    package mutating func decode<S: CaptionSink>(type: UInt8, _ byte1: UInt8, _ byte2: UInt8, at time: MediaTime, into sink: inout S) {
        for packet in assembler.add(type: type, byte1, byte2) { decode(packet: packet, at: time, into: &sink) }
    }

    /// Called at every frame, with or without 708 data.
    package mutating func settle<S: CaptionSink>(at time: MediaTime, into sink: inout S) {
        // Asked at every access unit: most streams have no 708 service.
        guard !active.isEmpty else { return }
        for number in active where decoders[number]?.isWaiting == true { decoders[number]?.settle(at: time, into: &sink) }
    }

    /// Ends the stream at `time`: a packet still being gathered is read as far as it is whole,
    /// and captions on screen end.
    package mutating func finish<S: CaptionSink>(at time: MediaTime, into sink: inout S) {
        if let packet = assembler.flush() { decode(packet: packet, at: time, into: &sink) }
        for number in active.sorted() { decoders[number]?.finish(at: time, into: &sink) }
    }

    /// At a discontinuity: captions end at `time` and every service starts again.
    package mutating func reset<S: CaptionSink>(at time: MediaTime, into sink: inout S) {
        finish(at: time, into: &sink)
        let services = servicesWithText
        self = DTVCCDecoder()
        servicesWithText = services
    }

    /// What each service shows at `time` and since when.
    package func openCaptions(at time: MediaTime) -> [(service: CaptionService, text: String, start: MediaTime, placement: CueSettings)] {
        active.sorted().compactMap { number in
            guard let decoder = decoders[number], let open = decoder.openCaption(at: time) else { return nil }
            return (decoder.service, open.text, open.start, open.placement)
        }
    }

    private mutating func decode<S: CaptionSink>(packet: [UInt8], at time: MediaTime, into sink: inout S) {
        for (number, data) in DTVCCPacketAssembler.serviceBlocks(packet) {
            guard (1...63).contains(number) else { continue }
            if decoders[number] == nil, let service = CaptionService.dtvcc(number) {
                decoders[number] = ServiceDecoder708(service: service)
                active.append(number)
            }
            decoders[number]?.feed(data, at: time, into: &sink)
            if let decoder = decoders[number], decoder.wroteText, !servicesWithText.contains(decoder.service) { servicesWithText.insert(decoder.service) }
        }
    }
}
