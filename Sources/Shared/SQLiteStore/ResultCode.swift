internal import CSQLite

/// An SQLite result code, primary or extended. A struct rather than an enum so
/// that codes added by a newer SQLite still fit.
package struct ResultCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    package let rawValue: Int32

    package init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    /// The primary code of an extended code (`SQLITE_BUSY_SNAPSHOT` -> `SQLITE_BUSY`).
    package var primary: ResultCode { ResultCode(rawValue: rawValue & 0xFF) }

    /// SQLite's English text for the code (`sqlite3_errstr`).
    package var description: String {
        String(cString: sqlite3_errstr(rawValue))
    }

    /// True for the codes a retry can cure: busy and locked, in any extended form.
    package var isBusy: Bool { primary == .busy || primary == .locked }

    package static let ok = ResultCode(rawValue: 0)
    package static let error = ResultCode(rawValue: 1)
    package static let `internal` = ResultCode(rawValue: 2)
    package static let permission = ResultCode(rawValue: 3)
    package static let abort = ResultCode(rawValue: 4)
    package static let busy = ResultCode(rawValue: 5)
    package static let locked = ResultCode(rawValue: 6)
    package static let noMemory = ResultCode(rawValue: 7)
    package static let readOnly = ResultCode(rawValue: 8)
    package static let interrupt = ResultCode(rawValue: 9)
    package static let ioError = ResultCode(rawValue: 10)
    package static let corrupt = ResultCode(rawValue: 11)
    package static let notFound = ResultCode(rawValue: 12)
    package static let full = ResultCode(rawValue: 13)
    package static let cantOpen = ResultCode(rawValue: 14)
    package static let `protocol` = ResultCode(rawValue: 15)
    package static let schema = ResultCode(rawValue: 17)
    package static let tooBig = ResultCode(rawValue: 18)
    package static let constraint = ResultCode(rawValue: 19)
    package static let mismatch = ResultCode(rawValue: 20)
    package static let misuse = ResultCode(rawValue: 21)
    package static let range = ResultCode(rawValue: 25)
    package static let notADatabase = ResultCode(rawValue: 26)
    package static let row = ResultCode(rawValue: 100)
    package static let done = ResultCode(rawValue: 101)

    // Extended codes the client reacts to.
    package static let busyRecovery = ResultCode(rawValue: 5 | (1 << 8))
    package static let busySnapshot = ResultCode(rawValue: 5 | (2 << 8))
    package static let busyTimeout = ResultCode(rawValue: 5 | (3 << 8))
    package static let constraintPrimaryKey = ResultCode(rawValue: 19 | (6 << 8))
    package static let constraintUnique = ResultCode(rawValue: 19 | (8 << 8))
}
