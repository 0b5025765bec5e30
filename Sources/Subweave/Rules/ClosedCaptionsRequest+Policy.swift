import Captions
import Foundation

extension ClosedCaptionsRequest {
    /// The rewriter's policy, given what the caption scan found and which services are
    /// published as subtitle renditions (made now, or kept from an earlier run).
    ///
    /// `automatic` never hides captions and never offers one twice: `NONE` when every service
    /// that carries text is published as a subtitle rendition, else the others are declared
    /// in-band. `inBand` declares every service found (none is then a rendition).
    func policy(_ captions: ProgrammeCaptions, asRenditions: Set<String>) -> ClosedCaptionsPolicy {
        switch self {
        case .automatic:
            let hidden = captions.declarable.filter { !asRenditions.contains($0.service.rawValue) }
            return hidden.isEmpty ? .automatic : .declare(Self.declarations(hidden, captions))
        case .none: return .none
        case .inBand: return .declare(Self.declarations(captions.declarable, captions))
        }
    }

    private static func declarations(_ services: [ProgrammeCaptions.Service], _ captions: ProgrammeCaptions) -> [CaptionServiceDeclaration] {
        services.map {
            CaptionServiceDeclaration(instreamID: $0.service.rawValue, name: captions.name(for: $0.service), language: captions.language(for: $0.service))
        }
    }

    /// Warnings about what the declaration does to the captions the video carries.
    func warnings(_ captions: ProgrammeCaptions, mode: CaptionMode) -> [PackageWarning] {
        var warnings: [PackageWarning] = []
        let coverage = captions.coverage
        for (service, twin) in captions.duplicatedServices where mode == .auto {
            warnings.append(
                PackageWarning(
                    .captionServiceLeftOut,
                    "\(service.rawValue) (CEA-708) carries the language of \(twin.rawValue) (CEA-608), which is published: it was left out as the same programme; publish it too with caption service setting \(service.rawValue):publish=yes, or instead with \(twin.rawValue):publish=no"
                ))
        }
        if captions.services.isEmpty && coverage.carriesCaptionData {
            warnings.append(
                PackageWarning(
                    .captionDataWithoutText,
                    "the video carries line-21 caption data (in \(coverage.captionDataUnits) of its \(coverage.accessUnits) frames) but no caption character was decoded from it; no caption rendition was made"
                ))
        }
        return warnings
    }
}
