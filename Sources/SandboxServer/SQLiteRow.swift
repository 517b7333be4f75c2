/// One column set of a result row, by column name.
struct SQLiteRow {
    var values: [String: SQLiteValue]
    subscript(_ name: String) -> SQLiteValue { values[name] ?? .null }
    func int(_ name: String) -> Int? {
        switch self[name] {
        case .integer(let v): return Int(v)
        case .real(let v): return Int(v)
        case .text(let s): return Int(s)
        default: return nil
        }
    }
    func double(_ name: String) -> Double? {
        switch self[name] {
        case .integer(let v): return Double(v)
        case .real(let v): return v
        default: return nil
        }
    }
    func string(_ name: String) -> String? {
        switch self[name] {
        case .text(let s): return s
        case .integer(let v): return String(v)
        case .real(let v): return String(v)
        default: return nil
        }
    }
    func blob(_ name: String) -> [UInt8]? {
        if case .blob(let b) = self[name] { return b }
        if case .text(let s) = self[name] { return Array(s.utf8) }
        return nil
    }
}
