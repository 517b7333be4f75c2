import QuickBloxAPI

/// What a run prints: the bench's row format (`{"rows": [{"key", "label", "value", "unit",
/// "target", "ok", "baseline", "detail"}]}`), one JSON object on stdout.
package struct LoadReport {
    package enum Value: Equatable {
        case int(Int)
        case double(Double)
        case string(String)
        case bool(Bool)
        case list([Value])
        case object([String: Value])

        /// As written: a double to three decimals, and 0 for one that is not finite.
        var json: JSONValue {
            switch self {
            case .int(let v): .int(v)
            case .double(let v): .double(v.isFinite ? (v * 1000).rounded() / 1000 : 0)
            case .string(let v): .string(v)
            case .bool(let v): .bool(v)
            case .list(let v): .array(v.map(\.json))
            case .object(let v): .object(v.mapValues(\.json))
            }
        }
    }

    package struct Baseline: Equatable {
        package var label: String
        package var value: Double
        package var unit: String
    }

    package struct Row: Equatable {
        package var key: String
        package var label: String
        package var value: Double
        package var unit: String
        package var target: String
        package var ok: Bool
        package var baseline: Baseline?
        package var detail: [String: Value]

        /// Without `baseline` when there is none.
        var json: JSONValue {
            var object: [String: JSONValue] = [
                "key": .string(key), "label": .string(label), "value": .double(value), "unit": .string(unit),
                "target": .string(target), "ok": .bool(ok), "detail": .object(detail.mapValues(\.json)),
            ]
            if let baseline {
                object["baseline"] = ["label": .string(baseline.label), "value": .double(baseline.value), "unit": .string(baseline.unit)]
            }
            return .object(object)
        }
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
        // A value that is not finite is written as nothing ran: the encoder refused it, the writer traps on it.
        guard rows.allSatisfy({ $0.value.isFinite && $0.baseline?.value.isFinite != false }) else { return "{\"rows\":[]}" }
        return JSONValue.object(["rows": .array(rows.map(\.json))]).compactText
    }
}
