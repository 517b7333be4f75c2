/// ObjectIds as chatctl makes them (4 bytes of seconds, 5 random bytes per process, a
/// 3-byte counter), so the sandbox stores each message under the id it came with.
package struct ObjectIdSource {
    package struct Id: Equatable {
        package var seconds: UInt32
        /// 5 random bytes, then the 3-byte counter.
        package var rest: UInt64

        private static let digits: [UInt8] = Array("0123456789abcdef".utf8)

        func appendHex(to out: inout [UInt8]) {
            let digits = Self.digits
            for shift in stride(from: 28, through: 0, by: -4) { out.append(digits[Int((seconds >> UInt32(shift)) & 0xF)]) }
            for shift in stride(from: 60, through: 0, by: -4) { out.append(digits[Int((rest >> UInt64(shift)) & 0xF)]) }
        }

        package var hex: String {
            var out: [UInt8] = []
            appendHex(to: &out)
            return String(decoding: out, as: UTF8.self)
        }
    }

    private let random = UInt64.random(in: 0..<(1 << 40))
    private var counter = UInt32.random(in: 0..<0x80_0000)

    package init() {}

    package mutating func next(seconds: Int) -> Id {
        counter = (counter &+ 1) & 0xFF_FFFF
        return Id(seconds: UInt32(truncatingIfNeeded: seconds), rest: random << 24 | UInt64(counter))
    }
}
