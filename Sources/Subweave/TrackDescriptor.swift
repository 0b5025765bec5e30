import Foundation

/// A subtitle track as the user described it: `key=value` pairs, not yet checked.
///
/// From the command line a descriptor is comma-separated, as in Shaka Packager's stream
/// descriptors: `url=subs/en.srt,language=en,name=English,forced`. A value containing a comma is
/// written in double quotes: `name="English, with signs"`. A bare key is a flag set to true. From
/// a tracks file it is a JSON object with the same keys (flags as booleans, `delay` as a number).
public struct TrackDescriptor: Sendable, Equatable {
    /// Where the descriptor came from, for messages: `--subtitle #2`, `tracks.json[0]`.
    public let origin: String
    /// The pairs in the order written; flags have the value `true`.
    public let pairs: [(key: String, value: String)]

    public init(origin: String, pairs: [(key: String, value: String)]) {
        self.origin = origin
        self.pairs = pairs
    }

    public static func == (a: TrackDescriptor, b: TrackDescriptor) -> Bool {
        a.origin == b.origin && a.pairs.elementsEqual(b.pairs) { $0.key == $1.key && $0.value == $1.value }
    }

    /// The value of `key` (the last one if repeated).
    public subscript(key: String) -> String? {
        pairs.last { $0.key == key }?.value
    }

    /// Parses the command-line form. Fails only on an unterminated quote.
    public init(parsing text: String, origin: String) throws(RegistrationError) {
        var pairs: [(String, String)] = []
        var items: [String] = []
        var current = ""
        var inQuotes = false
        for character in text {
            if character == "\"" {
                inQuotes.toggle()
                continue
            }
            if character == "," && !inQuotes {
                items.append(current)
                current = ""
                continue
            }
            current.append(character)
        }
        guard !inQuotes else {
            throw RegistrationError(.invalidValue, descriptor: origin, "a double quote is not closed; quote a whole value, as in name=\"English, SDH\"")
        }
        items.append(current)
        for item in items where !item.trimmingCharacters(in: .whitespaces).isEmpty {
            if let equals = item.firstIndex(of: "=") {
                let key = item[..<equals].trimmingCharacters(in: .whitespaces).lowercased()
                pairs.append((key, String(item[item.index(after: equals)...])))
            } else {
                pairs.append((item.trimmingCharacters(in: .whitespaces).lowercased(), "true"))
            }
        }
        self.init(origin: origin, pairs: pairs)
    }

    /// Parses a tracks file: a JSON array of objects with the descriptor keys. `file` names it
    /// in messages.
    public static func parseTracksFile(_ data: Data, file: String) throws(SubweaveError) -> [TrackDescriptor] {
        let elements: [JSONElement]
        do {
            elements = try JSONDecoder().decode([JSONElement].self, from: data)
        } catch let DecodingError.dataCorrupted(context) {
            throw .registration([RegistrationError(.invalidValue, descriptor: file,
                "not valid JSON (\(context.underlyingError.map { "\($0)" } ?? context.debugDescription)); expected an array of objects such as [{\"url\": \"subs/en.srt\", \"language\": \"en\"}]")])
        } catch {
            throw .registration([RegistrationError(.invalidValue, descriptor: file,
                "expected a JSON array of track objects such as [{\"url\": \"subs/en.srt\", \"language\": \"en\"}]")])
        }
        var result: [TrackDescriptor] = []
        var errors: [RegistrationError] = []
        for (index, element) in elements.enumerated() {
            let origin = "\(file)[\(index)]"
            guard case .object(let object) = element else {
                errors.append(RegistrationError(.invalidValue, descriptor: origin, "expected a JSON object with keys such as url, language, name"))
                continue
            }
            var pairs: [(String, String)] = []
            for key in object.keys.sorted() {
                switch object[key] {
                case .string(let s)?: pairs.append((key.lowercased(), s))
                case .bool(let b)?: pairs.append((key.lowercased(), b ? "true" : "false"))
                case .number(let n)?: pairs.append((key.lowercased(), n))
                case .null?, nil: continue
                default:
                    errors.append(RegistrationError(.invalidValue, descriptor: origin, "the value of \"\(key)\" must be a string, number or boolean"))
                }
            }
            result.append(TrackDescriptor(origin: origin, pairs: pairs))
        }
        if !errors.isEmpty { throw .registration(errors) }
        return result
    }
}

/// A JSON value as a tracks file holds it; numbers keep their text.
private enum JSONElement: Decodable {
    case string(String)
    case bool(Bool)
    case number(String)
    case null
    case object([String: JSONElement])
    case array

    init(from decoder: Decoder) throws {
        if let keyed = try? decoder.container(keyedBy: AnyKey.self) {
            var object: [String: JSONElement] = [:]
            for key in keyed.allKeys { object[key.stringValue] = try keyed.decode(JSONElement.self, forKey: key) }
            self = .object(object)
            return
        }
        if (try? decoder.unkeyedContainer()) != nil {
            self = .array
            return
        }
        let single = try decoder.singleValueContainer()
        if single.decodeNil() { self = .null; return }
        if let b = try? single.decode(Bool.self) { self = .bool(b); return }
        if let i = try? single.decode(Int.self) { self = .number(String(i)); return }
        if let d = try? single.decode(Double.self) { self = .number(String(d)); return }
        self = .string(try single.decode(String.self))
    }

    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
