#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a run prints: the bench's row format (`{"rows": [{"key", "label", "value", "unit",
/// "target", "ok", "baseline", "detail"}]}`), one JSON object on stdout.
package struct LoadReport: Encodable {
    package enum Value: Encodable, Equatable {
        case int(Int)
        case double(Double)
        case string(String)
        case bool(Bool)
        case list([Value])
        case object([String: Value])

        package func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .int(let v): try container.encode(v)
            case .double(let v): try container.encode(v.isFinite ? (v * 1000).rounded() / 1000 : 0)
            case .string(let v): try container.encode(v)
            case .bool(let v): try container.encode(v)
            case .list(let v): try container.encode(v)
            case .object(let v): try container.encode(v)
            }
        }
    }

    package struct Baseline: Encodable, Equatable {
        package var label: String
        package var value: Double
        package var unit: String
    }

    package struct Row: Encodable, Equatable {
        package var key: String
        package var label: String
        package var value: Double
        package var unit: String
        package var target: String
        package var ok: Bool
        package var baseline: Baseline?
        package var detail: [String: Value]
    }

    package var rows: [Row]

    /// 100000 → "100,000", for labels.
    static func grouped(_ n: Int) -> String {
        let digits = Array(String(n.magnitude))
        var out = ""
        for (i, d) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(d)
        }
        return (n < 0 ? "-" : "") + out
    }

    /// One line of JSON, keys sorted.
    package var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(self) else { return "{\"rows\":[]}" }
        return String(decoding: data, as: UTF8.self)
    }
}
