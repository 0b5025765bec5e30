/// The frame rate a file's SMPTE timecodes count (`HH:MM:SS:FF`): how many frames a timecode
/// second has, how long a real frame lasts, and whether drop-frame numbering applies.
///
/// SCC, MCC and EBU STL files schedule their data by timecode. A timecode names a frame; the
/// frame's time on the programme is its count times the frame duration:
///
/// | label | frames per timecode second | a frame lasts | drop-frame |
/// |---|---|---|---|
/// | `23.976` | 24 | 1001/24000 s | no |
/// | `24` | 24 | 1/24 s | no |
/// | `25` | 25 | 1/25 s | no |
/// | `29.97` | 30 | 1001/30000 s | as each timecode's separator says (`;` or `.` drop, `:` not) |
/// | `29.97df` | 30 | 1001/30000 s | always |
/// | `29.97ndf` | 30 | 1001/30000 s | never |
/// | `30` | 30 | 1/30 s | no |
///
/// MCC headers also name `50`, `59.94` (`60DF` drop-frame) and `60`, with 4 frame numbers a
/// minute skipped by 59.94 drop-frame.
///
/// Drop-frame numbering (SMPTE 12M) skips frame numbers 00 and 01 at the start of every minute
/// except every tenth, so 29.97 fps timecode keeps up with the wall clock; the frames themselves
/// are never skipped.
public struct TimecodeRate: Sendable, Hashable, CustomStringConvertible {
    /// Whether a timecode counts drop-frame numbers.
    public enum DropFrame: Sendable, Hashable {
        /// As its separator says: `;` or `.` before the frames is drop-frame, `:` is not.
        case fromSeparator
        case always
        case never
    }

    /// Frames in one timecode second: 24, 25 or 30.
    public let framesPerSecond: Int64
    /// Whether a real frame lasts 1001/1000 of its nominal length (23.976, 29.97).
    public let isFractional: Bool
    public let dropFrame: DropFrame

    /// 29.97 fps, drop-frame as each timecode says: the rate of NTSC captions and SCC files.
    public static let ntsc = TimecodeRate(framesPerSecond: 30, isFractional: true, dropFrame: .fromSeparator)

    /// Every rate a label names, in the order `--help` lists them.
    public static let labels: [String] = ["23.976", "24", "25", "29.97", "29.97df", "29.97ndf", "30"]

    public init(framesPerSecond: Int64, isFractional: Bool, dropFrame: DropFrame) {
        self.framesPerSecond = framesPerSecond
        self.isFractional = isFractional
        self.dropFrame = dropFrame
    }

    /// The rate a label names: one of ``labels`` (also `23.98`, `29.97DF`, `29.97NDF`, `30DF`
    /// for 29.97 drop-frame as MCC headers write it, and `30NDF`; and the rates MCC files declare
    /// beyond SCC's: `50`, `59.94` with `df`/`ndf`, `60DF` for 59.94 drop-frame, `60`); nil
    /// otherwise.
    public init?(label: String) {
        switch label.lowercased() {
        case "23.976", "23.98", "24000/1001": self.init(framesPerSecond: 24, isFractional: true, dropFrame: .never)
        case "24": self.init(framesPerSecond: 24, isFractional: false, dropFrame: .never)
        case "25": self.init(framesPerSecond: 25, isFractional: false, dropFrame: .never)
        case "29.97", "30000/1001": self = .ntsc
        case "29.97df", "30df": self.init(framesPerSecond: 30, isFractional: true, dropFrame: .always)
        case "29.97ndf": self.init(framesPerSecond: 30, isFractional: true, dropFrame: .never)
        case "30", "30ndf": self.init(framesPerSecond: 30, isFractional: false, dropFrame: .never)
        case "50": self.init(framesPerSecond: 50, isFractional: false, dropFrame: .never)
        case "59.94", "60000/1001": self.init(framesPerSecond: 60, isFractional: true, dropFrame: .fromSeparator)
        case "59.94df", "60df": self.init(framesPerSecond: 60, isFractional: true, dropFrame: .always)
        case "59.94ndf": self.init(framesPerSecond: 60, isFractional: true, dropFrame: .never)
        case "60", "60ndf": self.init(framesPerSecond: 60, isFractional: false, dropFrame: .never)
        default: return nil
        }
    }

    /// The label that names this rate.
    public var description: String {
        switch (framesPerSecond, isFractional, dropFrame) {
        case (24, true, _): "23.976"
        case (30, true, .fromSeparator): "29.97"
        case (30, true, .always): "29.97df"
        case (30, true, .never): "29.97ndf"
        case (60, true, .fromSeparator): "59.94"
        case (60, true, .always): "59.94df"
        case (60, true, .never): "59.94ndf"
        default: "\(framesPerSecond)"
        }
    }

    /// Whether this rate has drop-frame numbering at all (29.97 and 59.94 only).
    public var allowsDropFrame: Bool { isFractional && (framesPerSecond == 30 || framesPerSecond == 60) }

    /// The frame numbers drop-frame skips at the start of a minute: 2 at 29.97, 4 at 59.94.
    var droppedPerMinute: Int64 { framesPerSecond / 15 }

    /// A timecode read against this rate.
    public struct Reading: Sendable, Equatable {
        /// The frame count from 00:00:00:00.
        public var frame: Int64
        /// What did not fit the rate, if anything (the frame is then the nearest that does).
        public var misfit: Misfit?

        public init(frame: Int64, misfit: Misfit? = nil) {
            self.frame = frame
            self.misfit = misfit
        }
    }

    /// How a timecode does not fit the rate.
    public enum Misfit: Sendable, Equatable {
        /// Its frames field is the rate's frames per second or more (frame 27 at 25 fps).
        case frameBeyondSecond(Int64)
        /// It is drop-frame (`;`) at a rate that has none or under `29.97ndf`, or non-drop under
        /// `29.97df`.
        case dropFrameMismatch(written: Bool)
        /// A drop-frame timecode naming a frame number drop-frame skips (`00:01:00;00`).
        case skippedNumber
    }

    /// Reads `HH:MM:SS:FF` (or `;`/`.` before the frames): two digits per field, hours below 24,
    /// minutes and seconds below 60, frames two digits; nil when it is not a timecode at all.
    ///
    /// A timecode that is one but does not fit the rate is read as the nearest frame that does,
    /// with the misfit said.
    public func read(_ timecode: Substring) -> Reading? {
        let bytes = Array(timecode.utf8)
        guard bytes.count == 11, bytes[2] == UInt8(ascii: ":"), bytes[5] == UInt8(ascii: ":") else { return nil }
        let separator = bytes[8]
        guard separator == UInt8(ascii: ":") || separator == UInt8(ascii: ";") || separator == UInt8(ascii: ".") else { return nil }
        func field(_ at: Int) -> Int64? {
            let (a, b) = (bytes[at], bytes[at + 1])
            guard (0x30...0x39).contains(a), (0x30...0x39).contains(b) else { return nil }
            return Int64(a - 0x30) * 10 + Int64(b - 0x30)
        }
        guard let h = field(0), let m = field(3), let s = field(6), var f = field(9), h < 24, m < 60, s < 60 else { return nil }
        var misfit: Misfit?
        let written = separator != UInt8(ascii: ":")
        var drop: Bool
        switch dropFrame {
        case .fromSeparator: drop = written
        case .always: drop = true
        case .never: drop = false
        }
        if written, !allowsDropFrame || dropFrame == .never {
            misfit = .dropFrameMismatch(written: true)
        } else if dropFrame == .always, !written {
            misfit = .dropFrameMismatch(written: false)
        }
        if !allowsDropFrame { drop = false }
        if f >= framesPerSecond {
            misfit = .frameBeyondSecond(f)
            f = framesPerSecond - 1
        }
        let minutes = h * 60 + m
        if drop, s == 0, f < droppedPerMinute, minutes % 10 != 0 {
            misfit = .skippedNumber
            f = droppedPerMinute
        }
        var frames = (minutes * 60 + s) * framesPerSecond + f
        if drop { frames -= droppedPerMinute * (minutes - minutes / 10) }
        return Reading(frame: frames, misfit: misfit)
    }

    /// Reads a timecode given as numbers (EBU STL's binary hours, minutes, seconds and frames),
    /// drop-frame when the rate always is: nil when a field is out of range (hours 24 or more,
    /// minutes or seconds 60 or more); a frame past the second, or a number drop-frame skips, is
    /// a misfit, read as the nearest frame that exists.
    public func read(hours h: Int64, minutes m: Int64, seconds s: Int64, frames f: Int64) -> Reading? {
        guard (0..<24).contains(h), (0..<60).contains(m), (0..<60).contains(s), (0..<100).contains(f) else { return nil }
        let digits = { (v: Int64) in v < 10 ? "0\(v)" : "\(v)" }
        let separator = dropFrame == .always && allowsDropFrame ? ";" : ":"
        return read(Substring(digits(h) + ":" + digits(m) + ":" + digits(s) + separator + digits(f)))
    }

    /// The time of frame `frame` (counted from zero): `frame` real frame durations.
    public func time(frame: Int64) -> MediaTime {
        isFractional ? MediaTime(frame * 1001, timescale: framesPerSecond * 1000) : MediaTime(frame, timescale: framesPerSecond)
    }
}
