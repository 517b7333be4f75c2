/// Comparisons of secrets that take as long whatever the bytes, so timing tells an attacker nothing.
package enum ConstantTime {
    package static func equal(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var diff: UInt8 = 0
        for i in a.indices { diff |= a[i] ^ b[i] }
        return diff == 0
    }
}
