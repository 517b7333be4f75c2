/// Reads a sixel image back into pixels (enough of DEC's format for what chafa
/// writes: colour registers in RGB percent, repeats, `$` and `-`), so that tests
/// look at the picture rather than at its bytes.
struct SixelPicture {
    /// Each painted pixel's colour, red, green and blue in percent.
    private(set) var pixels: [Int: [Int: [Int]]] = [:]
    private(set) var width = 0, height = 0

    init?(_ payload: String) {
        guard let start = payload.firstIndex(of: "q"), payload.hasSuffix("\u{1B}\\") else { return nil }
        var registers: [Int: [Int]] = [:]
        var color: [Int] = [], x = 0, band = 0
        var rest = Substring(payload[payload.index(after: start)...].dropLast(2))
        func number() -> Int {
            let digits = rest.prefix(while: \.isNumber)
            rest = rest.dropFirst(digits.count)
            return Int(digits) ?? 0
        }
        func numbers() -> [Int] {
            var values = [number()]
            while rest.first == ";" { rest = rest.dropFirst(); values.append(number()) }
            return values
        }
        while let next = rest.first {
            rest = rest.dropFirst()
            switch next {
            case "\"": let raster = numbers(); if raster.count == 4 { width = raster[2]; height = raster[3] }
            case "#":
                let values = numbers()
                if values.count == 5 { registers[values[0]] = Array(values[2...]) }
                color = registers[values[0]] ?? []
            case "$": x = 0
            case "-": x = 0; band += 1
            case "!":
                let count = number()
                guard let data = rest.first else { return nil }
                rest = rest.dropFirst()
                paint(data, count)
            default: paint(next, 1)
            }
        }
        func paint(_ data: Character, _ count: Int) {
            guard let value = data.asciiValue, (63...126).contains(value) else { return }
            for _ in 0..<count {
                for bit in 0..<6 where (Int(value) - 63) >> bit & 1 == 1 { pixels[x, default: [:]][band * 6 + bit] = color }
                x += 1
            }
        }
    }

    subscript(x x: Int, y y: Int) -> [Int]? { pixels[x]?[y] }
}
