internal import CSQLite

/// An SQLite result code, primary or extended. A struct rather than an enum so
/// that codes added by a newer SQLite still fit.
public struct ResultCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int32

    public init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    /// The primary code of an extended code (`SQLITE_BUSY_SNAPSHOT` -> `SQLITE_BUSY`).
    public var primary: ResultCode { ResultCode(rawValue: rawValue & 0xFF) }

    /// SQLite's English text for the code (`sqlite3_errstr`).
    public var description: String {
        String(cString: sqlite3_errstr(rawValue))
    }

    /// True for the codes a retry can cure: busy and locked, in any extended form.
    public var isBusy: Bool { primary == .busy || primary == .locked }

    public static let ok = ResultCode(rawValue: 0)
    public static let error = ResultCode(rawValue: 1)
    public static let `internal` = ResultCode(rawValue: 2)
    public static let permission = ResultCode(rawValue: 3)
    public static let abort = ResultCode(rawValue: 4)
    public static let busy = ResultCode(rawValue: 5)
    public static let locked = ResultCode(rawValue: 6)
    public static let noMemory = ResultCode(rawValue: 7)
    public static let readOnly = ResultCode(rawValue: 8)
    public static let interrupt = ResultCode(rawValue: 9)
    public static let ioError = ResultCode(rawValue: 10)
    public static let corrupt = ResultCode(rawValue: 11)
    public static let notFound = ResultCode(rawValue: 12)
    public static let full = ResultCode(rawValue: 13)
    public static let cantOpen = ResultCode(rawValue: 14)
    public static let `protocol` = ResultCode(rawValue: 15)
    public static let schema = ResultCode(rawValue: 17)
    public static let tooBig = ResultCode(rawValue: 18)
    public static let constraint = ResultCode(rawValue: 19)
    public static let mismatch = ResultCode(rawValue: 20)
    public static let misuse = ResultCode(rawValue: 21)
    public static let range = ResultCode(rawValue: 25)
    public static let notADatabase = ResultCode(rawValue: 26)
    public static let row = ResultCode(rawValue: 100)
    public static let done = ResultCode(rawValue: 101)

    // Extended codes the client reacts to.
    public static let busyRecovery = ResultCode(rawValue: 5 | (1 << 8))
    public static let busySnapshot = ResultCode(rawValue: 5 | (2 << 8))
    public static let busyTimeout = ResultCode(rawValue: 5 | (3 << 8))
    public static let constraintPrimaryKey = ResultCode(rawValue: 19 | (6 << 8))
    public static let constraintUnique = ResultCode(rawValue: 19 | (8 << 8))
}
