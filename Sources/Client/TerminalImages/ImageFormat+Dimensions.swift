extension ImageFormat {
    /// The width and height a file of this format says it has, read from the few
    /// bytes where each format keeps them, so that `ImageLimits` judge a file before
    /// any C decoder reads it; nil when they are not where they should be.
    func dimensions(in bytes: [UInt8]) -> (width: Int, height: Int)? {
        func big16(_ at: Int) -> Int? { at + 2 <= bytes.count ? Int(bytes[at]) << 8 | Int(bytes[at + 1]) : nil }
        func little16(_ at: Int) -> Int? { at + 2 <= bytes.count ? Int(bytes[at + 1]) << 8 | Int(bytes[at]) : nil }
        func big32(_ at: Int) -> Int? { big16(at).flatMap { high in big16(at + 2).map { high << 16 | $0 } } }
        func little32(_ at: Int) -> Int? { little16(at).flatMap { low in little16(at + 2).map { $0 << 16 | low } } }
        func pair(_ width: Int?, _ height: Int?) -> (width: Int, height: Int)? {
            guard let width, let height else { return nil }
            return (width, height)
        }
        switch self {
        case .png:
            // The IHDR chunk comes first: its length, its type, then width and height.
            guard bytes.count >= 24, Array(bytes[12..<16]) == Array("IHDR".utf8) else { return nil }
            return pair(big32(16), big32(20))
        case .gif:
            return pair(little16(6), little16(8))
        case .bmp:
            // An OS/2 header (12 bytes) has 16-bit sizes; the others 32-bit, a negative height meaning top-down.
            guard let headerSize = little32(14) else { return nil }
            if headerSize == 12 { return pair(little16(18), little16(20)) }
            return pair(little32(18).map { Int(Int32(truncatingIfNeeded: $0)) },
                        little32(22).map { abs(Int(Int32(truncatingIfNeeded: $0))) })
        case .jpeg:
            // Markers from the start to the first start-of-frame, which holds the size.
            var at = 2
            while at + 4 <= bytes.count {
                guard bytes[at] == 0xFF else { return nil }
                let marker = bytes[at + 1]
                if marker == 0xFF { at += 1; continue }  // fill byte
                if marker == 0xD8 || (0xD0...0xD7).contains(marker) || marker == 0x01 { at += 2; continue }
                if marker == 0xD9 || marker == 0xDA { return nil }  // the end, or scan data, before any frame
                if (0xC0...0xCF).contains(marker) && ![0xC4, 0xC8, 0xCC].contains(marker) {
                    return pair(big16(at + 7), big16(at + 5))
                }
                guard let length = big16(at + 2), length >= 2 else { return nil }
                at += 2 + length
            }
            return nil
        }
    }
}
