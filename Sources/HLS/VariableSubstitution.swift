import Timebase

/// Variable substitution (RFC 8216bis §4.3, §4.4.2.3): `{$name}` becomes the variable's value.
///
/// One pass from left to right: a substituted value is not scanned again, so definitions that
/// refer to each other cannot expand (the spec substitutes once).
package enum VariableSubstitution {
    /// A reference to a variable no `EXT-X-DEFINE` defines.
    package struct Undefined: Error, Sendable, Equatable {
        package let name: String
    }

    /// `text` with every `{$name}` replaced; fails on a reference to an undefined variable.
    package static func apply(_ definitions: [String: String], to text: String) throws(Undefined) -> String {
        let bytes = Array(text.utf8)
        guard bytes.count >= 3, bytes.contains(UInt8(ascii: "{")) else { return text }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        // The next `}` is found once for every `{$` before it (a line of `{$` is linear).
        var nextBrace = NextIndex<UInt8>(UInt8(ascii: "}"))
        var i = 0
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: "{"), i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "$"),
                let close = nextBrace.find(in: bytes, from: i + 2)
            {
                let nameBytes = bytes[(i + 2)..<close]
                // Variable names are [a-zA-Z0-9-_] (§4.4.2.3); anything else is not a reference.
                if !nameBytes.isEmpty, nameBytes.allSatisfy(isNameByte) {
                    let name = String(decoding: nameBytes, as: UTF8.self)
                    guard let value = definitions[name] else { throw Undefined(name: name) }
                    out += value.utf8
                    i = close + 1
                    continue
                }
            }
            out.append(bytes[i])
            i += 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    static func isNameByte(_ b: UInt8) -> Bool {
        (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x2D || b == 0x5F
    }
}
