#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Lenient readers for chat objects: real servers send ids and times as numbers or
/// strings, and lists as arrays or comma-separated text (docs/protocol.md §5, §6, §9).
extension JSONValue {
    /// An integral number, also from a numeric string (" 42", "42.0"); nil for 4.5 or text.
    var looseInt: Int? {
        switch self {
        case .int(let value):
            return value
        case .double(let value):
            return Self.exactInt(value)
        case .string(let text):
            let trimmed = text.trimmingScalars(" \t\r\n")
            if let value = Int(trimmed) { return value }
            return Double(trimmed).flatMap(Self.exactInt)
        default:
            return nil
        }
    }

    /// Unix seconds from an integer, a double (fractions dropped) or a numeric string.
    var looseUnixSeconds: Int? {
        switch self {
        case .int(let value):
            return value
        case .double(let value):
            return Self.wholeSeconds(value)
        case .string(let text):
            let trimmed = text.trimmingScalars(" \t\r\n")
            if let value = Int(trimmed) { return value }
            return Double(trimmed).flatMap(Self.wholeSeconds)
        default:
            return nil
        }
    }

    /// A time given as ISO text (`created_at`) or as unix seconds in any number shape.
    var looseDate: Date? {
        if case .string(let text) = self, let date = QBTimestamp.parse(text.trimmingScalars(" \t\r\n")) {
            return date
        }
        switch self {
        case .int(let value): return Date(timeIntervalSince1970: Double(value))
        case .double(let value) where value.isFinite: return Date(timeIntervalSince1970: value)
        case .string(let text):
            return Double(text.trimmingScalars(" \t\r\n")).flatMap { $0.isFinite ? Date(timeIntervalSince1970: $0) : nil }
        default: return nil
        }
    }

    /// Text, also from a number (an id or name the server sent unquoted); nil for null.
    var looseString: String? {
        switch self {
        case .string(let text): return text
        case .int(let value): return String(value)
        case .double(let value): return Self.exactInt(value).map(String.init) ?? String(value)
        default: return nil
        }
    }

    /// Integers from `[1,2]`, `["1","2"]`, `"1,2, 3"` or a lone number; entries that are
    /// not integers are dropped, null or a missing list is empty.
    var looseIntList: [Int] {
        switch self {
        case .array(let items):
            return items.compactMap(\.looseInt)
        case .string(let text):
            return text.split(separator: ",").compactMap { JSONValue.string(String($0)).looseInt }
        case .int, .double:
            return looseInt.map { [$0] } ?? []
        default:
            return []
        }
    }

    /// Strings from `["a","b"]`, `"a,b"` or a lone value.
    var looseStringList: [String] {
        switch self {
        case .array(let items):
            return items.compactMap(\.looseString)
        case .string(let text):
            return text.split(separator: ",").map { String($0).trimmingScalars(" \t\r\n") }.filter { !$0.isEmpty }
        case .int, .double:
            return looseString.map { [$0] } ?? []
        default:
            return []
        }
    }

    private static func exactInt(_ value: Double) -> Int? {
        value.isFinite && value.rounded() == value && abs(value) < 9.0e15 ? Int(value) : nil
    }

    private static func wholeSeconds(_ value: Double) -> Int? {
        value.isFinite && abs(value) < 9.0e15 ? Int(value.rounded(.down)) : nil
    }
}
