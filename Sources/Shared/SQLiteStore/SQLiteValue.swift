/// A value bound to a statement parameter or read from a column.
package enum SQLiteValue: Hashable, Sendable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])
}

extension SQLiteValue {
    /// `.integer` from an `Int`.
    package static func int(_ value: Int) -> SQLiteValue { .integer(Int64(value)) }

    /// `.integer` for a value, `.null` for nil.
    package static func optional(_ value: Int?) -> SQLiteValue {
        value.map { .integer(Int64($0)) } ?? .null
    }

    /// `.text` for a value, `.null` for nil.
    package static func optional(_ value: String?) -> SQLiteValue {
        value.map { .text($0) } ?? .null
    }

    /// `.real` for a value, `.null` for nil.
    package static func optional(_ value: Double?) -> SQLiteValue {
        value.map { .real($0) } ?? .null
    }
}

// Readers that never convert text: a column holding the wrong type reads as nil.
extension SQLiteValue {
    /// An `.integer`, or a `.real` without a fraction that fits in `Int`.
    package var intValue: Int? {
        switch self {
        case .integer(let value): return Int(exactly: value)
        case .real(let value): return Int(exactly: value)
        default: return nil
        }
    }

    /// A `.real`, or an `.integer` as a `Double`.
    package var doubleValue: Double? {
        switch self {
        case .real(let value): return value
        case .integer(let value): return Double(value)
        default: return nil
        }
    }

    package var textValue: String? {
        if case .text(let value) = self { return value }
        return nil
    }

    package var blobValue: [UInt8]? {
        if case .blob(let value) = self { return value }
        return nil
    }
}

extension SQLiteValue: ExpressibleByIntegerLiteral, ExpressibleByStringLiteral, ExpressibleByNilLiteral,
    ExpressibleByFloatLiteral
{
    package init(integerLiteral value: Int64) { self = .integer(value) }
    package init(stringLiteral value: String) { self = .text(value) }
    package init(nilLiteral: ()) { self = .null }
    package init(floatLiteral value: Double) { self = .real(value) }
}
